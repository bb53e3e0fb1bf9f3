# gen_vast.awk: write a synthetic Vast.ai search response, {"offers":[...]},
# in the shape of POST /api/v0/bundles/ (tests/fixtures/vast/offers.json,
# ../shared/data/samples/vastai): one compact object per line.
#
#	awk -v n=20000 -f bench/gen_vast.awk > offers.json
#
# Variables: n offers (default 20000); lean=1 writes only the fields the
# adapter reads (~270 bytes an offer instead of the ~2 kB of all 83, so
# 100k offers stay under the adapter's 64 MB body cap); seed for the
# mix. Output is deterministic. The mix is Vast's: mostly consumer
# cards, RTX 4090 the most common, 1/2/4/8 GPUs, 40 locations, a few
# names the catalogue does not know.

BEGIN {
	if (n == "")
		n = 20000
	if (seed == "")
		seed = 42
	srand(seed)
	# name|MB per GPU|weight|base USD per GPU-hour
	split("RTX 4090|24564|28|0.35;RTX 3090|24576|12|0.20;RTX 5090|32607|6|0.60;" \
	    "RTX 3060|12288|4|0.08;RTX 3080|10240|3|0.12;RTX 4080S|16376|3|0.25;" \
	    "RTX 4070|12282|2|0.14;RTX A6000|49140|5|0.45;RTX 6000Ada|49140|3|0.75;" \
	    "RTX A5000|24564|2|0.22;A100 SXM4|81920|5|1.10;A100 PCIE|40960|2|0.80;" \
	    "H100 SXM|81559|6|2.00;H100 PCIE|81559|2|1.70;H200|143771|2|2.60;" \
	    "L40S|46068|3|0.75;A40|46068|2|0.40;Tesla V100|16384|2|0.15;" \
	    "Q RTX 8000|49152|1|0.30;GTX 1080 Ti|11264|1|0.06;Titan Xp|12288|1|0.07",
	    gpu, ";")
	ngpu = 0
	total = 0
	for (i = 1; gpu[i] != ""; i++) {
		split(gpu[i], f, "|")
		ngpu++
		gname[ngpu] = f[1]
		gram[ngpu] = f[2]
		total += f[3]
		gcum[ngpu] = total
		gprice[ngpu] = f[4]
	}
	split("Texas, US|California, US|Quebec, CA|Ontario, CA|Nevada, US|" \
	    "Oregon, US|Virginia, US|Florida, US|Illinois, US|Utah, US|" \
	    "Norway, NO|Sweden, SE|Finland, FI|Germany, DE|France, FR|" \
	    "Netherlands, NL|Poland, PL|Czechia, CZ|Spain, ES|Portugal, PT|" \
	    "Romania, RO|Bulgaria, BG|Ukraine, UA|Estonia, EE|Iceland, IS|" \
	    "Japan, JP|South Korea, KR|Taiwan, TW|Hong Kong, HK|Singapore, SG|" \
	    "Vietnam, VN|Thailand, TH|India, IN|Australia, AU|New Zealand, NZ|" \
	    "Brazil, BR|Chile, CL|Guangxi, CN|Sichuan, CN|Israel, IL", geo, "|")
	ngeo = 0
	for (i = 1; geo[i] != ""; i++)
		ngeo++
	split("1 1 1 1 1 1 1 1 1 2 2 2 2 4 4 4 8 8 8 3 6", counts, " ")
	ncounts = 21
	split("AMD EPYC 7642 48-Core Processor|AMD EPYC 9354 32-Core Processor|" \
	    "Intel Xeon Gold 6338|AMD Ryzen 9 7950X 16-Core Processor|" \
	    "Intel Core i9-13900K", cpus, "|")
	printf "{\"offers\":["
	for (i = 1; i <= n; i++) {
		r = rand() * total
		for (g = 1; g < ngpu && gcum[g] < r; g++)
			;
		k = counts[1 + int(rand() * ncounts)]
		id = 11000000 + i * 7
		dph = gprice[g] * k * (0.7 + rand() * 0.8)
		bid = dph * (0.4 + rand() * 0.3)
		cores = k * (8 + int(rand() * 3) * 8)
		eff = cores / (1 + int(rand() * 2))
		ram = cores * 4000 + int(rand() * 1000)
		rel = 0.9 + rand() * 0.0999
		nvl = (gname[g] ~ /SXM/ && k > 1) ? 234.5 : 0.0
		loc = geo[1 + int(rand() * ngeo)]
		rentable = rand() < 0.97 ? "true" : "false"
		printf "%s\n{", i == 1 ? "" : ","
		if (lean) {
			printf "\"bw_nvlink\":%.1f,\"cpu_cores\":%d," \
			    "\"cpu_cores_effective\":%.1f,\"cpu_ram\":%d," \
			    "\"dph_total\":%.6f,\"geolocation\":\"%s\"," \
			    "\"gpu_name\":\"%s\",\"gpu_ram\":%d,\"id\":%d," \
			    "\"min_bid\":%.6f,\"num_gpus\":%d," \
			    "\"reliability2\":%.6f,\"rentable\":%s," \
			    "\"rented\":false}", nvl, cores, eff, ram, dph, loc,
			    gname[g], gram[g], id, bid, k, rel, rentable
			continue
		}
		printf "\"ask_contract_id\":%d,\"bundle_id\":%d," \
		    "\"bundled_results\":null,\"bw_nvlink\":%.1f," \
		    "\"compute_cap\":890,\"cpu_arch\":\"amd64\"," \
		    "\"cpu_cores\":%d,\"cpu_cores_effective\":%.1f," \
		    "\"cpu_ghz\":3.2,\"cpu_name\":\"%s\",\"cpu_ram\":%d," \
		    "\"credit_discount_max\":0.4,\"cuda_max_good\":12.8," \
		    "\"direct_port_count\":%d,\"discount_rate\":0.0," \
		    "\"discounted_dph_total\":%.6f,\"discounted_hourly\":0.0," \
		    "\"disk_bw\":%.1f,\"disk_name\":\"SAMSUNG MZQL27T6HBLA\"," \
		    "\"disk_space\":%.2f,\"dlperf\":%.3f," \
		    "\"dlperf_per_dphtotal\":%.3f,\"dph_base\":%.6f," \
		    "\"dph_total\":%.6f,\"dph_total_adj\":%.6f," \
		    "\"driver_vers\":570124006,\"driver_version\":\"570.124.06\"," \
		    "\"duration\":2592000.0,\"end_date\":1790000000.0," \
		    "\"external\":false,\"flops_per_dphtotal\":%.3f," \
		    "\"geolocation\":\"%s\",\"geolocode\":%d," \
		    "\"gpu_arch\":\"nvidia\",\"gpu_display_active\":false," \
		    "\"gpu_frac\":1.0,\"gpu_ids\":[%d],\"gpu_lanes\":16," \
		    "\"gpu_mem_bw\":1008.4,\"gpu_name\":\"%s\",\"gpu_ram\":%d," \
		    "\"gpu_total_ram\":%d,\"has_avx\":1,\"host_id\":%d," \
		    "\"hosting_type\":0,\"hostname\":null,\"id\":%d," \
		    "\"inet_down\":%.1f,\"inet_down_cost\":0.002," \
		    "\"inet_up\":%.1f,\"inet_up_cost\":0.002," \
		    "\"instance\":{\"discountTotalHour\":0," \
		    "\"discountedTotalPerHour\":2.7e-05,\"diskHour\":2.7e-05," \
		    "\"gpuCostPerHour\":0,\"totalHour\":2.7e-05}," \
		    "\"internet_down_cost_per_tb\":2.0," \
		    "\"internet_up_cost_per_tb\":2.0,\"is_bid\":false," \
		    "\"logo\":\"/static/logos/vastai_small2.png\"," \
		    "\"machine_id\":%d,\"min_bid\":%.6f,\"mobo_name\":\"H12SSL\"," \
		    "\"num_gpus\":%d,\"os_version\":\"22.04\",\"pci_gen\":4.0," \
		    "\"pcie_bw\":24.1,\"public_ipaddr\":\"203.0.113.%d\"," \
		    "\"reliability\":%.6f,\"reliability2\":%.6f," \
		    "\"reliability_mult\":0.8,\"rentable\":%s,\"rented\":false," \
		    "\"rn\":%d,\"score\":%.2f,\"search\":{\"discountTotalHour\":0," \
		    "\"discountedTotalPerHour\":%.6f,\"diskHour\":2.7e-05," \
		    "\"gpuCostPerHour\":%.6f,\"totalHour\":%.6f}," \
		    "\"start_date\":1750000000.0,\"static_ip\":true," \
		    "\"storage_cost\":0.2,\"storage_total_cost\":2.7e-05," \
		    "\"time_remaining\":\"\",\"time_remaining_isbid\":\"\"," \
		    "\"total_flops\":%.2f,\"vericode\":1," \
		    "\"verification\":\"verified\",\"vram_costperhour\":0.01," \
		    "\"webpage\":null}",
		    id, 2000000000 + id, nvl, cores, eff, cpus[1 + i % 5], ram,
		    100 + i % 150, dph, 1000 + rand() * 3000, 100 + rand() * 1600,
		    80 * k, 80 * k / dph, dph, dph, dph, 80 * k / dph, loc,
		    900000000 + i, 300000 + i, gname[g], gram[g], gram[g] * k,
		    90000 + int(i / 4), id, 100 + rand() * 2000, 100 + rand() * 1800,
		    50000 + int(i / 2), bid, k, 1 + i % 250, rel, rel, rentable, i,
		    100 + rand() * 100, dph, dph, dph, 82 * k
	}
	printf "\n]}\n"
}
