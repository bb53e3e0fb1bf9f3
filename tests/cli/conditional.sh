#!/bin/sh
# Conditional refresh (issue 15): the providers whose documents are whole
# (AWS's index, spot feed and advisor, Lambda, OCI) send the
# validators of their last good answer; a second refresh of unchanged data
# gets only 304s, downloads no body, keeps offers and history, and records
# the check as a success. A changed document is downloaded and parsed, a
# failed refresh keeps the old validators, and a mix of 304 and 200 still
# gives exactly the offers a full download gives.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

PROVIDERS="aws lambda oci"
LAMBDA_API_KEY=lambda-SECRET-key-0002
GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export LAMBDA_API_KEY GPUCOST_AWS_REGIONS
FX=$TOP_SRCDIR/tests/fixtures
LM='Mon,%2002%20Mar%202026%2010:00:00%20GMT'
IDX=/offers/v1.0/aws/AmazonEC2/current/region_index.json
CSV=/offers/v1.0/aws/AmazonEC2/current

# Each provider gets a copy of its fixtures and routes with validators:
# ETags for AWS, Last-Modified alone for OCI, both for Lambda.
for p in $PROVIDERS; do
	mkdir -p "$T/fx-$p"
	cp "$FX/$p"/* "$T/fx-$p/"
done
# The index names for us-west-2 the version its price list carries, so
# every region stores the index's version (a settled index).
sed 's|/AmazonEC2/20250910183045/us-west-2/|/AmazonEC2/20250911093000/us-west-2/|' \
    "$FX/aws/region_index.json" > "$T/fx-aws/index-settled.json"
check "the settled index names us-west-2's file version" \
    grep -q 20250911093000/us-west-2 "$T/fx-aws/index-settled.json"

# routes P LINES...: replace provider P's routes file atomically.
routes() {
	_p=$1
	shift
	printf '%s\n' "$@" > "$T/fx-$_p/routes.new"
	mv "$T/fx-$_p/routes.new" "$T/fx-$_p/routes"
}
aws_routes() {	# INDEX-FILE SPOT-FILE SPOT-ETAG [INDEX-OPTIONS]
	routes aws \
	    "GET $IDX $1 ${4:-etag=\"idx-1\"}" \
	    "GET $CSV/us-east-1/index.csv us-east-1.csv chunked" \
	    "GET $CSV/us-west-2/index.csv us-west-2.csv" \
	    "GET $CSV/eu-west-1/index.csv eu-west-1.csv" \
	    "GET /spot.json $2 etag=\"$3\"" \
	    "GET /spot-advisor-data.json spot-advisor-data.json etag=\"adv-1\""
}
aws_routes index-settled.json spot.json spot-1
routes lambda "GET /api/v1/instance-types instance-types.json etag=\"lambda-1\" last-modified=$LM"
routes oci \
    "GET /pls/apex/cetools/api/v1/products/ products.json last-modified=$LM" \
    "GET /a/ocom/docs/cloudestimator2/data/shapes.json shapes.json last-modified=$LM"
for p in $PROVIDERS; do
	serve "$p" "$T/fx-$p"
	export "$(url_var "$p")=$url"
done

# Empty every request log.
clear_logs() { for _p in $PROVIDERS; do : > "$T/$_p.log"; done; }
# RES lines are written once a response went out, so the client can be
# done first: wait (up to 20 s) until every request of P has its RES.
logged() { [ "$(grep -c '^RES ' "$T/$1.log")" -eq "$(grep -c '^REQ ' "$T/$1.log")" ]; }
settle() { for _p in $PROVIDERS; do wait_for 20 logged "$_p"; done; }
# How many responses of P had status S.
answered() { grep -c "^RES $2 " "$T/$1.log"; }
# Body bytes P sent in all.
body_bytes() { awk '/^RES / { n += $3 } END { print n + 0 }' "$T/$1.log"; }
# How many of P's requests carried a validator.
with_validators() {
	awk '/^REQ / { v = 0 }
	/^HDR If-(None-Match|Modified-Since): / && !v { n++; v = 1 }
	END { print n + 0 }' "$T/$1.log"
}
# Every answer P gave was a 304 without a body, and there was one.
only_304() {
	[ "$(grep -c '^RES ' "$T/$1.log")" -gt 0 ] &&
	[ "$(grep '^RES ' "$T/$1.log" | grep -cv '^RES 304 0 ')" -eq 0 ]
}
status_col() {	# P COLUMN: from the status row
	sqlite3 "$DB" "select coalesce($2, '') from provider_status where provider = '$1'"
}
history_rows() { sqlite3 "$DB" "select count(*) from price_history where provider = '$1'"; }
fetched_times() { sqlite3 "$DB" "select distinct fetched_at from offers where provider = '$1'"; }
meta_dump() { sqlite3 "$DB" "select name || '=' || value from provider_meta where provider = '$1' order by name"; }
# Wait until the clock has moved past epoch second $1.
after() { while [ "$(date +%s)" -le "$1" ]; do sleep 0.2; done; }

# 1. From the snapshot: full downloads, no validator sent (the cached
# offers are not from any answer we could name).
run --db "$DB" providers
clear_logs
run --db "$DB" refresh --provider aws,lambda,oci
settle
check "first refresh exits 0" status_is 0
for p in $PROVIDERS; do
	check "first refresh: $p sent no validator" [ "$(with_validators "$p")" -eq 0 ]
	check "first refresh: $p downloaded bodies" [ "$(body_bytes "$p")" -gt 0 ]
	check "first refresh: no 304 to $p" [ "$(answered "$p" 304)" -eq 0 ]
	check "first refresh: $p keeps validators" \
	    [ "$(sqlite3 "$DB" "select count(*) from provider_meta where provider = '$p' and (name like 'etag:%' or name like 'modified:%')")" -gt 0 ]
done
first_success=$(status_col aws last_success)
for p in $PROVIDERS; do
	eval "sum_$p=\$(offers_data_sum $p)"
	eval "hist_$p=\$(history_rows $p)"
done
before_bytes=0
for p in $PROVIDERS; do
	before_bytes=$((before_bytes + $(body_bytes "$p")))
done

# 2. Nothing changed: only 304s, no body, offers and history as they
# were, and the check is a success now.
after "$first_success"
clear_logs
run --db "$DB" refresh --provider aws,lambda,oci
settle
check "second refresh exits 0" status_is 0
check "second refresh prints nothing off a terminal" [ ! -s "$T/err" ]
for p in $PROVIDERS; do
	check "second refresh: $p got only 304s" only_304 "$p"
	check "second refresh: every request to $p named its copy" \
	    [ "$(with_validators "$p")" -eq "$(grep -c '^REQ ' "$T/$p.log")" ]
	check "second refresh: $p downloaded 0 body bytes" [ "$(body_bytes "$p")" -eq 0 ]
	check "second refresh: $p offers unchanged" [ "$(offers_data_sum "$p")" = "$(eval echo "\$sum_$p")" ]
	check "second refresh: $p history unchanged" [ "$(history_rows "$p")" -eq "$(eval echo "\$hist_$p")" ]
	check "second refresh: $p success at the check time" \
	    [ "$(status_col "$p" last_success)" -gt "$first_success" ]
	check "second refresh: $p attempt = success" \
	    [ "$(status_col "$p" last_attempt)" = "$(status_col "$p" last_success)" ]
	check "second refresh: $p has no error" [ -z "$(status_col "$p" last_error)" ]
	check "second refresh: $p offers confirmed at the check time" \
	    [ "$(fetched_times "$p")" = "$(status_col "$p" last_success)" ]
done
check "second refresh: the If-None-Match sent is the ETag given" \
    grep -q '^HDR If-None-Match: "lambda-1"$' "$T/lambda.log"
check "second refresh: OCI sent If-Modified-Since" \
    grep -q '^HDR If-Modified-Since: Mon, 02 Mar 2026 10:00:00 GMT$' "$T/oci.log"
check "second refresh: no AWS price list asked" [ "$(grep -c '^REQ GET .*index.csv' "$T/aws.log")" -eq 0 ]
second_success=$(status_col lambda last_success)
run --db "$DB" providers --format csv
line=$(tr -d '\r' < "$T/out" | grep '^lambda,')
check "providers: lambda's success is the check ($line)" \
    [ "$(echo "$line" | cut -d, -f7)" = "$(date -u -d "@$second_success" +%Y-%m-%dT%H:%M:%SZ)" ]
check "providers: lambda has no error" [ -z "$(echo "$line" | cut -d, -f9)" ]
run --db "$DB" --provider lambda --format csv
check "query: no unchanged Lambda offer is noted stale" out_lacks stale

# 3. Lambda's document changes (a new ETag and a price): downloaded and
# parsed; the others still answer 304.
subst_first "$FX/lambda/instance-types.json" "$T/fx-lambda/changed.json" \
    '"price_cents_per_hour": 2392' '"price_cents_per_hour": 2492'
check "the changed Lambda document has the new price" grep -q 2492 "$T/fx-lambda/changed.json"
routes lambda "GET /api/v1/instance-types changed.json etag=\"lambda-2\""
after "$second_success"
clear_logs
run --db "$DB" refresh --provider aws,lambda,oci
settle
check "third refresh exits 0" status_is 0
check "third refresh: Lambda's new document downloaded" \
    [ "$(answered lambda 200)" -eq 1 ]
check "third refresh: ... with a body" [ "$(body_bytes lambda)" -gt 0 ]
check "third refresh: the new Lambda price is stored" \
    [ "$(sqlite3 "$DB" "select distinct price from offers where provider = 'lambda' and instance_type = 'gpu_8x_h100_sxm5'")" = 24920000 ]
check "third refresh: the price change is in the history" \
    [ "$(history_rows lambda)" -gt "$hist_lambda" ]
check "third refresh: the new ETag is kept" \
    [ "$(sqlite3 "$DB" "select count(*) from provider_meta where provider = 'lambda' and value like '% \"lambda-2\"'")" -eq 1 ]
for p in aws oci; do
	check "third refresh: $p still got only 304s" only_304 "$p"
done

# 4. A failed refresh keeps the old validators; the next one still uses
# them.
meta_before=$(meta_dump oci)
routes oci \
    "GET /pls/apex/cetools/api/v1/products/ - status=500" \
    "GET /a/ocom/docs/cloudestimator2/data/shapes.json shapes.json last-modified=$LM"
clear_logs
run --db "$DB" refresh --provider oci
settle
check "oci 500: exit 4" status_is 4
check "oci 500: the error is recorded" [ -n "$(status_col oci last_error)" ]
check "oci 500: validators kept as they were" [ "$(meta_dump oci)" = "$meta_before" ]
routes oci \
    "GET /pls/apex/cetools/api/v1/products/ products.json last-modified=$LM" \
    "GET /a/ocom/docs/cloudestimator2/data/shapes.json shapes.json last-modified=$LM"
clear_logs
run --db "$DB" refresh --provider oci
settle
check "oci back: exit 0" status_is 0
check "oci back: the old validators still work (only 304s)" only_304 oci
check "oci back: the error is cleared" [ -z "$(status_col oci last_error)" ]

# 5. Mixed: AWS's spot feed changes, its index and advisor do not. The
# 304'd two are asked again without validators, and the offers are
# exactly those a full download of the same documents gives.
subst_first "$FX/aws/spot.json" "$T/fx-aws/spot-2.json" \
    '"size":"g5.xlarge","valueColumns":[{"name":"linux","prices":{"USD":"0.4429"}}' \
    '"size":"g5.xlarge","valueColumns":[{"name":"linux","prices":{"USD":"0.5429"}}' \
    '"region":"us-east-1"'
check "the changed spot feed has the new price" grep -q 0.5429 "$T/fx-aws/spot-2.json"
aws_routes index-settled.json spot-2.json spot-2
clear_logs
run --db "$DB" refresh --provider aws
settle
check "mixed: exit 0" status_is 0
check "mixed: index and advisor answered 304 first" [ "$(answered aws 304)" -eq 2 ]
check "mixed: then were asked again without validators, 200" [ "$(answered aws 200)" -eq 3 ]
check "mixed: the re-asked requests sent no validator" [ "$(with_validators aws)" -eq 3 ]
check "mixed: no price list downloaded (versions unchanged)" [ "$(grep -c '^REQ GET .*index.csv' "$T/aws.log")" -eq 0 ]
check "mixed: the new spot price is stored" \
    [ "$(sqlite3 "$DB" "select spot_price from offers where provider = 'aws' and instance_type = 'g5.xlarge' and region = 'us-east-1'")" = 542900 ]
mixed_sum=$(offers_data_sum aws)
MAIN_DB=$DB
DB=$T/reference.db
run --db "$DB" refresh --provider aws
settle
check "reference: a full download of the same documents works" status_is 0
check "mixed: offers equal a full download's" [ "$(offers_data_sum aws)" = "$mixed_sum" ]
DB=$MAIN_DB
clear_logs
run --db "$DB" refresh --provider aws
settle
check "after mixed: the next refresh gets only 304s" only_304 aws

# 6. An index whose price list is ahead of it is not settled: it is asked
# without validators, and the region it lags behind is fetched again,
# as without conditional requests.
aws_routes region_index.json spot-2.json spot-2 'etag="idx-0"'
clear_logs
run --db "$DB" refresh --provider aws
settle
check "unsettled: exit 0" status_is 0
check "unsettled: the (changed) index downloaded" [ "$(answered aws 200)" -ge 1 ]
check "unsettled: us-west-2 fetched again" grep -q "^RES 200 [1-9][0-9]* GET $CSV/us-west-2/index.csv" "$T/aws.log"
clear_logs
run --db "$DB" refresh --provider aws
settle
check "unsettled: the index is asked without validators" \
    [ "$(grep -A20 "^REQ GET $IDX" "$T/aws.log" | sed '/^END$/q' | grep -c '^HDR If-')" -eq 0 ]
check "unsettled: us-west-2 fetched again each time" grep -q "^RES 200 [1-9][0-9]* GET $CSV/us-west-2/index.csv" "$T/aws.log"
aws_routes index-settled.json spot-2.json spot-2
run --db "$DB" refresh --provider aws
settle
check "settled again: exit 0" status_is 0

# 7. Validators are sent only for offers that came from them: not once
# the offers are gone, nor after another gpucost version kept them.
sqlite3 "$DB" "delete from offers where provider = 'oci'; update provider_status set offer_count = 0 where provider = 'oci'"
clear_logs
run --db "$DB" refresh --provider oci
settle
check "no cached offers: oci refresh works" status_is 0
check "no cached offers: no validator sent" [ "$(with_validators oci)" -eq 0 ]
check "no cached offers: the bodies were downloaded" [ "$(answered oci 200)" -eq 2 ]
check "no cached offers: offers back" [ "$(offers_data_sum oci)" = "$sum_oci" ]
sqlite3 "$DB" "update provider_meta set value = replace(value, '/0', '/old0') where provider = 'oci'"
clear_logs
run --db "$DB" refresh --provider oci
settle
check "validators of another gpucost version: not sent" [ "$(with_validators oci)" -eq 0 ]
check "validators of another gpucost version: full download" [ "$(answered oci 200)" -eq 2 ]

# 8. A 304 to a request that named no copy is an error, the offers stay.
DB=$T/bare.db
routes oci \
    "GET /pls/apex/cetools/api/v1/products/ - status=304" \
    "GET /a/ocom/docs/cloudestimator2/data/shapes.json - status=304"
run --db "$DB" refresh --provider oci
settle
check "unasked 304: exit 4" status_is 4
check "unasked 304: the error says so" err_has "oci: .*304 Not Modified to a request that named no cached copy"
check "unasked 304: no live offer stored (the snapshot's stay)" \
    [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'oci' and source <> 'snapshot'")" -eq 0 ]
check "unasked 304: the error is recorded" [ -n "$(status_col oci last_error)" ]
routes oci \
    "GET /pls/apex/cetools/api/v1/products/ products.json last-modified=$LM" \
    "GET /a/ocom/docs/cloudestimator2/data/shapes.json shapes.json last-modified=$LM"
DB=$MAIN_DB

# 9. AWS without any validator (an origin that sends none): a region whose
# version is unchanged is kept, and its offers are confirmed at the check
# time, not left at their first download.
aws_plain() {
	routes aws \
	    "GET $IDX index-settled.json" \
	    "GET $CSV/us-east-1/index.csv us-east-1.csv chunked" \
	    "GET $CSV/us-west-2/index.csv us-west-2.csv" \
	    "GET $CSV/eu-west-1/index.csv eu-west-1.csv" \
	    "GET /spot.json spot.json" \
	    "GET /spot-advisor-data.json spot-advisor-data.json"
}
aws_plain
DB=$T/plain.db
run --db "$DB" refresh --provider aws
settle
check "plain AWS: first refresh works" status_is 0
t=$(status_col aws last_success)
after "$t"
clear_logs
run --db "$DB" refresh --provider aws
settle
check "plain AWS: second refresh works" status_is 0
check "plain AWS: no price list downloaded again" [ "$(grep -c '^REQ GET .*index.csv' "$T/aws.log")" -eq 0 ]
check "plain AWS: kept offers confirmed at the check time" \
    [ "$(fetched_times aws)" = "$(status_col aws last_success)" ]
check "plain AWS: the check is later than the download" [ "$(fetched_times aws)" -gt "$t" ]
DB=$MAIN_DB

# 10. Paged lists (Vultr, Scaleway): page 1 is conditional only when the
# last success found the whole list on it. The fixtures have a list of
# each that runs to two pages.
for p in vultr scaleway; do
	mkdir -p "$T/fx-$p"
	cp "$FX/$p"/* "$T/fx-$p/"
	# Every route with an ETag of its own.
	awk '!/^[ \t]*#/ && NF >= 3 { print $0, "etag=\"" $3 "-1\"" }' \
	    "$FX/$p/routes" > "$T/fx-$p/routes.new"
	mv "$T/fx-$p/routes.new" "$T/fx-$p/routes"
	serve "$p" "$T/fx-$p"
	export "$(url_var "$p")=$url"
done
PROVIDERS="vultr scaleway"
DB=$T/paged.db
run --db "$DB" refresh --provider vultr,scaleway
settle
check "paged: first refresh works" status_is 0
sum_vultr=$(offers_data_sum vultr)
sum_scaleway=$(offers_data_sum scaleway)
t=$(status_col vultr last_success)
after "$t"
clear_logs
run --db "$DB" refresh --provider vultr,scaleway
settle
check "paged: second refresh works" status_is 0
check "paged: Vultr's two-page list asked without validators" \
    [ "$(grep -A8 '^REQ GET /v2/plans?type=all&per_page=500$' "$T/vultr.log" | sed '/^END$/q' | grep -c '^HDR If-')" -eq 0 ]
check "paged: Vultr's one-page list answered 304" grep -q '^RES 304 0 GET /v2/plans-metal' "$T/vultr.log"
check "paged: then was asked again in full" grep -q '^RES 200 [1-9][0-9]* GET /v2/plans-metal' "$T/vultr.log"
check "paged: Scaleway's two-page lists asked without validators" \
    [ "$(grep -A8 '^REQ GET /instance/v1/zones/fr-par-2/products/servers?per_page=100&page=1$' "$T/scaleway.log" | sed '/^END$/q' | grep -c '^HDR If-')" -eq 0 ]
check "paged: Scaleway's 16 one-page lists answered 304" [ "$(answered scaleway 304)" -eq 16 ]
check "paged: Vultr offers as a full download's" [ "$(offers_data_sum vultr)" = "$sum_vultr" ]
check "paged: Scaleway offers as a full download's" [ "$(offers_data_sum scaleway)" = "$sum_scaleway" ]

# One page each: a second refresh gets only 304s.
subst_first "$FX/vultr/plans-1.json" "$T/fx-vultr/plans-one.json" \
    '"next": "bmV4dF9fMg=="' '"next": ""'
routes vultr \
    'GET /v2/plans?type=all&per_page=500 plans-one.json etag="one-1"' \
    'GET /v2/plans-metal?per_page=500 plans-metal.json etag="metal-1"'
sed 's|^GET /instance/v1/zones/fr-par-2/products/\([^ ]*\)?per_page=100&page=1 .*|GET /instance/v1/zones/fr-par-2/products/\1?per_page=100\&page=1 empty.json etag="fr2-1"|; /page=2/d' \
    "$T/fx-scaleway/routes" > "$T/fx-scaleway/routes.new"
mv "$T/fx-scaleway/routes.new" "$T/fx-scaleway/routes"
check "scaleway routes: fr-par-2 now one short page" [ "$(grep -c 'fr-par-2.*empty.json' "$T/fx-scaleway/routes")" -eq 2 ]
run --db "$DB" refresh --provider vultr,scaleway
settle
check "one page: refresh works" status_is 0
t=$(status_col vultr last_success)
after "$t"
clear_logs
run --db "$DB" refresh --provider vultr,scaleway
settle
check "one page: refresh works again" status_is 0
check "one page: Vultr got only 304s" only_304 vultr
check "one page: Scaleway got only 304s" only_304 scaleway
check "one page: all 18 Scaleway lists (9 zones) asked" [ "$(answered scaleway 304)" -eq 18 ]

# Another USD per EUR rate: Scaleway's validators no longer apply.
clear_logs
GPUCOST_USD_PER_EUR=1.2 run --db "$DB" refresh --provider scaleway
settle
check "new rate: refresh works" status_is 0
check "new rate: no validator sent" [ "$(with_validators scaleway)" -eq 0 ]
check "new rate: prices converted at it" \
    [ "$(sqlite3 "$DB" "select price || ' ' || price_original from offers where provider = 'scaleway' and key = 'H100-1-80G/pl-waw-2'")" = "3439800 2866500" ]
clear_logs
GPUCOST_USD_PER_EUR=1.2 run --db "$DB" refresh --provider scaleway
settle
check "same rate again: only 304s" only_304 scaleway
DB=$MAIN_DB

# Issue 28: OVHcloud's catalog is one document; Linode's types and
# regions are one page each, its stock list two pages (never sent
# validators: page 1 of a list that goes on says nothing of page 2).
for p in ovh linode; do
	mkdir -p "$T/fx-$p"
	cp "$FX/$p"/* "$T/fx-$p/"
done
routes ovh "GET /1.0/order/catalog/public/cloud?ovhSubsidiary=FR catalog-fr.json etag=\"ovh-1\""
routes linode \
    "GET /v4/linode/types?page=1&page_size=500 types.json etag=\"types-1\"" \
    "GET /v4/regions?page=1&page_size=500 regions.json etag=\"regions-1\"" \
    "GET /v4/regions/availability?page=1&page_size=500 availability-1.json etag=\"av-1\"" \
    "GET /v4/regions/availability?page=2&page_size=500 availability-2.json etag=\"av-2\""
for p in ovh linode; do
	serve "$p" "$T/fx-$p"
	export "$(url_var "$p")=$url"
done
PROVIDERS="ovh linode"
run --db "$DB" refresh --provider ovh,linode
settle
check "ovh, linode: first refresh works" status_is 0
sum_ovh=$(offers_data_sum ovh)
sum_linode=$(offers_data_sum linode)
clear_logs
run --db "$DB" refresh --provider ovh,linode
settle
check "ovh, linode: second refresh works" status_is 0
check "ovh: only a 304, no body" only_304 ovh
check "ovh: offers as they were" [ "$(offers_data_sum ovh)" = "$sum_ovh" ]
check "linode: the two-page stock list asked without validators" \
    [ "$(grep -A8 '^REQ GET /v4/regions/availability?page=1&page_size=500$' "$T/linode.log" | sed '/^END$/q' | grep -c '^HDR If-')" -eq 0 ]
check "linode: types and regions answered 304" \
    [ "$(answered linode 304)" -eq 2 ]
check "linode: ... then asked in full" [ "$(answered linode 200)" -eq 4 ]
check "linode: offers as a full download's" [ "$(offers_data_sum linode)" = "$sum_linode" ]
subst_first "$FX/ovh/catalog-fr.json" "$T/fx-ovh/catalog-2.json" '"price": 280000000,' '"price": 290000000,'
routes ovh "GET /1.0/order/catalog/public/cloud?ovhSubsidiary=FR catalog-2.json etag=\"ovh-2\""
clear_logs
run --db "$DB" refresh --provider ovh
settle
check "ovh: a changed catalog is downloaded" [ "$(answered ovh 200)" -eq 1 ]
check "ovh: its new price stored" \
    [ "$(sqlite3 "$DB" "select price_original from offers where provider = 'ovh' and key = 'h100-380/GRA11'")" = 2900000 ]

echo "# body bytes of the first refresh of aws,lambda,oci: $before_bytes" >&2
finish
