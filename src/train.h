/*
 * train.h: the training run a buyer asks about (--train PARAMS:TOKENS),
 * whatever it runs on: its compute, the GPU memory its training state
 * needs, and the assumptions that turn them into hours. What the run
 * costs on one plan is cost.c's (cost_plan_train()). Pure: no I/O.
 *
 * The model, each number with its source in gpucost(1), TRAINING:
 *
 *	FLOPs     = 6 x params x tokens (dense transformer: Kaplan et
 *	            al. 2020, Hoffmann et al. 2022)
 *	GPU-hours = FLOPs / (dense BF16 peak x MFU) / 3600
 *	memory    = 16 bytes a parameter (mixed-precision Adam: BF16
 *	            weights and gradients, FP32 master weights and two
 *	            moments) + 20 % headroom, sharded over every GPU
 */
#ifndef GPUCOST_TRAIN_H
#define GPUCOST_TRAIN_H

#include <stdbool.h>
#include <stddef.h>

struct err;

#define TRAIN_MFU_DEFAULT	0.40	/* model FLOPs utilisation */
#define TRAIN_CHECKPOINT_DEFAULT 1800	/* seconds between checkpoints */
#define TRAIN_BYTES_PER_PARAM	16	/* mixed-precision Adam */
#define TRAIN_HEADROOM		1.20	/* activations, buffers, fragments */
/* Bounds of what --train takes: a small test model to past any run. */
#define TRAIN_PARAMS_MIN	1e3
#define TRAIN_PARAMS_MAX	1e14
#define TRAIN_TOKENS_MIN	1e3
#define TRAIN_TOKENS_MAX	1e17
#define TRAIN_EGRESS_MAX_GB	1e9	/* an exabyte */

/* The run asked about; params 0: no --train. */
struct train {
	double	params;		/* parameters */
	double	tokens;		/* training tokens */
	double	mfu;		/* model FLOPs utilisation, (0, 1] */
	int	checkpoint_s;	/* seconds between checkpoints, > 0 */
	double	egress_gb;	/* --egress: GB (10^9 bytes) moved out; 0 none */
};

/* No run: params 0, the default MFU and checkpoint interval. */
void	train_init(struct train *t);
/* Was --train given? */
bool	train_given(const struct train *t);

/*
 * "7B:2T", "70B:1.4T", "405M:10B": parameters and tokens, each a number
 * with an optional suffix K, M, B or T (10^3 ... 10^12, either case).
 * Returns 0, or -1 with a line naming --train in err; t's other members
 * are kept.
 */
int	train_parse(const char *s, struct train *t, struct err *err);
/* One such number ("1.4T") into *out; -1 when it is not one. */
int	train_parse_count(const char *s, double *out);
/* --mfu: a fraction in (0, 1]. */
int	train_parse_mfu(const char *s, double *out, struct err *err);
/*
 * --egress: a size with a unit, "10TB", "500GB", "2.5TiB", "0": GB, TB,
 * PB (decimal), GiB, TiB, PiB (binary), or a bare number of GB, into GB
 * of 10^9 bytes.
 */
int	train_parse_size(const char *s, double *gb, struct err *err);

/* "7B", "1.4T", "405M": a count as --train writes it. */
size_t	train_count_text(double v, char *buf, size_t size);
/* "7B:2T": the run as --train takes it. */
size_t	train_text(const struct train *t, char *buf, size_t size);

/* The run's training compute: 6 x params x tokens. */
double	train_flops(const struct train *t);
/*
 * GPU-hours on GPUs of a dense BF16 peak of tflops at t's MFU; NAN when
 * the peak is unknown (0).
 */
double	train_gpu_hours(const struct train *t, double tflops);
/* GB (10^9 bytes) of GPU memory the run's training state needs. */
double	train_memory_gb(const struct train *t);
/* Can GPUs of vram_gb in all (known: > 0) hold it? */
bool	train_fits(const struct train *t, double vram_gb);

#endif
