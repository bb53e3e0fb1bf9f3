/*
 * gpu.h: the GPU catalogue and name matching.
 *
 * The catalogue (data/gpus.tsv, compiled into src/gpu_table.c) gives
 * every GPU a canonical id ("A100-80", "H100", "RTX4090"), a family (a
 * short query such as "A100" matches A100-40 and A100-80), vendor, VRAM,
 * architecture, dense BF16 TFLOPS and the spellings providers use.
 *
 * Names are compared in a normalised form: lowercase, only [a-z0-9]
 * kept, leading vendor words (nvidia, amd, tesla, geforce, radeon,
 * quadro) dropped and a trailing "gb" after a digit dropped, so
 * "NVIDIA A100-SXM4-80GB", "a100_sxm4_80gb" and "A100 SXM4 80 GB" are one
 * name. Pure: no I/O, no state.
 */
#ifndef GPUCOST_GPU_H
#define GPUCOST_GPU_H

#include <stdbool.h>
#include <stddef.h>

#define GPU_NORM_MAX	64	/* buffer size for a normalised name */
#define GPU_MATCH_MAX	16	/* most models one query can match */

struct gpu_model {
	const char	*id;		/* canonical id, "A100-80" */
	const char	*family;	/* "A100"; equals id for one-model families */
	const char	*vendor;	/* "nvidia", "amd" */
	const char	*arch;		/* "Ampere", "Hopper", "CDNA3" ... */
	int		 vram_gb;	/* memory per GPU, GB */
	double		 bf16_tflops;	/* dense BF16, SXM/flagship form; 0: no BF16 */
	double		 bf16_tflops_pcie; /* PCIe form where it differs; 0: same */
	const char	*aliases;	/* '|'-separated provider spellings */
	const char	*form;		/* "sxm", "pcie", "bridge" (PCIe, NVLink
					   bridge possible) or "" (both/other) */
};

struct gpu_alias {
	const char	*norm;		/* normalised spelling, sorted (C locale) */
	unsigned short	 model;		/* index into gpu_models[] */
};

/* Generated from data/gpus.tsv (src/gpu_table.c). */
extern const struct gpu_model gpu_models[];
extern const size_t gpu_model_count;
extern const struct gpu_alias gpu_aliases[];
extern const size_t gpu_alias_count;

/* Write the normalised form of name into out (GPU_NORM_MAX bytes). */
void	gpu_normalise(const char *name, char *out, size_t size);

/* The model with this canonical id (case-insensitive), or NULL. */
const struct gpu_model *gpu_find(const char *id);

/*
 * Resolve a provider's GPU text to a model. An alias names one model
 * outright; a family name ("A100", "Tesla V100", "A100 SXM4" with its
 * form-factor word removed) is resolved with vram_gb (per GPU, 0 when
 * unknown), snapping to the family member within 7 % of it. Returns NULL
 * when the text is unknown or stays ambiguous: the caller keeps the raw
 * text and never guesses.
 */
const struct gpu_model *gpu_resolve(const char *raw, int vram_gb);

/*
 * Models a user's --gpu query names: a family name gives every member
 * ("A100" -> A100-40, A100-80), an id or alias gives one model. Fills
 * out (max entries) and returns how many matched, 0 for none.
 */
size_t	gpu_query(const char *query, const struct gpu_model **out, size_t max);

/* A board's form: what --gpu "H100 SXM" asks for and JSON's "form". */
enum gpu_form {
	GPU_FORM_ANY = 0,	/* not asked, or not known */
	GPU_FORM_SXM,		/* SXM/OAM board on NVLink/NVSwitch */
	GPU_FORM_PCIE		/* PCIe card */
};

/* "sxm", "pcie"; NULL for GPU_FORM_ANY. */
const char *gpu_form_name(enum gpu_form form);

/*
 * gpu_query() for a query that may name a form: "H100 SXM",
 * "H100-PCIe", "A100 80GB SXM4" give the models without the form word
 * and *form (GPU_FORM_ANY when the query names none: "H100", "A100").
 */
size_t	gpu_query_form(const char *query, const struct gpu_model **out,
	    size_t max, enum gpu_form *form);

/*
 * Up to max catalogue models whose names are closest to query (edit
 * distance on normalised names), best first, for "did you mean".
 */
size_t	gpu_suggest(const char *query, const struct gpu_model **out,
	    size_t max);

/*
 * The models a fragment of a name can only mean: those whose id or an
 * alias contains it ("4090" -> RTX4090, "5090" -> RTX5090), each once;
 * at most max, and 0 for a fragment under 3 characters.
 */
size_t	gpu_fragment(const char *query, const struct gpu_model **out,
	    size_t max);

/*
 * Do the models of one answer name different cards that only share a
 * name (a family across architectures: the Turing Quadro RTX 6000 and
 * the RTX 6000 Ada)? A family of one card in several sizes (A100) is
 * not ambiguous.
 */
bool	gpu_ambiguous(const struct gpu_model *const *models, size_t n);

/* Dense BF16 TFLOPS for the model in this form (nvlink: SXM figure). */
double	gpu_bf16_tflops(const struct gpu_model *model, int is_pcie);

#endif
