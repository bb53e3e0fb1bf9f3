/*
 * str.h: small string helpers, and the sanitiser every piece of
 * provider-supplied text goes through before it is stored.
 */
#ifndef GPUCOST_STR_H
#define GPUCOST_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Copy src into dst (size bytes, always NUL-terminated, truncating at a
 * UTF-8 character boundary). Returns strlen(src), as strlcpy does.
 */
size_t	str_copy(char *dst, size_t size, const char *src);

/*
 * Copy src into dst (size bytes) as str_copy() does, but a src that does
 * not fit ends in "..." where it was cut (never inside a UTF-8
 * character), all within size. Returns the length written.
 */
size_t	str_cut(char *dst, size_t size, const char *src);

/*
 * Copy at most len bytes of src into dst (size bytes) with terminal
 * control removed: C0 and C1 control characters, DEL, and whole escape
 * sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL or ESC \", and
 * two-byte "ESC x") are dropped; runs of spaces, tabs and newlines
 * become one space; bytes that are not valid UTF-8 become '?'; leading
 * and trailing blanks are dropped. The result is always NUL-terminated.
 * Returns the length written.
 */
size_t	str_sanitize(char *dst, size_t size, const char *src, size_t len);

/*
 * A value the user typed, for a message: sanitised, cut to 60 bytes and
 * in double quotes ("\"abc\""). Returns buf.
 */
const char *str_quoted(const char *value, char *buf, size_t size);

/* True if s contains no byte str_sanitize would change or drop. */
bool	str_is_clean(const char *s);

/*
 * Is s[0..len) UTF-8 (no overlong form, surrogate or value past
 * U+10FFFF)? str_utf8_repair() makes s so in place, each byte of a bad
 * sequence becoming '?' (so ASCII structure around it stays).
 */
bool	str_utf8_valid(const char *s, size_t len);
void	str_utf8_repair(char *s);

/* ASCII case-insensitive equality and substring search. */
bool	str_eq_nocase(const char *a, const char *b);
const char *str_find_nocase(const char *haystack, const char *needle);

/* Terminal columns taken by a UTF-8 string (one per code point). */
size_t	str_width(const char *s);

/*
 * Byte length of the longest prefix of s that fits in width columns
 * (never splitting a UTF-8 sequence).
 */
size_t	str_prefix_for_width(const char *s, size_t width);

/*
 * Fit a message in width columns, keeping its end (the cause, after the
 * last ": ") whole where it can and cutting the middle to "...":
 * "Refresh done ...: 5 failed (aws: fetching https://pricing...: Couldn't
 * connect to server)" keeps "Couldn't connect to server)". Writes dst
 * (size bytes); returns its length.
 */
size_t	str_shorten(char *dst, size_t size, const char *src, size_t width);

/*
 * Would fnmatch() read this glob as the user meant? Every '[' opens a
 * bracket expression that must close ("[" alone would silently match a
 * literal '[' and find nothing).
 */
bool	str_glob_valid(const char *s);

/* Levenshtein distance of two strings, at most STR_DISTANCE_MAX bytes each
   compared (the rest of a longer one counts as that many edits). */
#define STR_DISTANCE_MAX	64
size_t	str_distance(const char *a, const char *b);

/*
 * The rows of a table whose string field (a const char * at offset field
 * of each of its n rows of stride bytes) keeps equal values together:
 * *from and *to bound the rows whose field is s (empty when none). The
 * last value asked and its rows are kept in *memo (zeroed before the
 * first ask), so a run of asks for one value (a provider's offers, read
 * in key order) compares one string, not the table's. A value longer
 * than memo keeps is looked up every time.
 */
struct str_run {
	char	 last[32];
	size_t	 from, to;
};
void	str_run_find(struct str_run *memo, const void *rows, size_t n,
	    size_t stride, size_t field, const char *s, size_t *from,
	    size_t *to);

/*
 * The word of words[0..n) nearest to s, if close enough to be a typo of it
 * (at most a third of its length in edits, at least 1, and 2 for words of
 * 6 or more: "--gpus" -> gpu, "histroy" -> history); NULL if none is.
 */
const char *str_nearest(const char *s, const char *const *words, size_t n);

/*
 * Copy of url with the password of its user information masked
 * ("https://ann:***@host/"): credentials in a --from URL never reach a
 * message (cron mails stderr). Anything else is returned as it is;
 * the caller frees it. *password (if not NULL) gets a pointer into url
 * at the password and *len its length (0: none), to mask it elsewhere.
 */
char	*str_url_redact(const char *url, const char **password, size_t *len);

/*
 * FNV-1a (64 bits): n bytes of p folded into h, which starts at
 * STR_FNV1A_BASIS; the hash of the bytes so far. Not a defence against
 * chosen input: for keys, versions and validator names.
 */
#define STR_FNV1A_BASIS	UINT64_C(14695981039346656037)
uint64_t str_fnv1a(uint64_t h, const void *p, size_t n);

#endif
