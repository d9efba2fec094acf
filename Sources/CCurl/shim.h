#ifndef GATEHOUSE_CCURL_SHIM_H
#define GATEHOUSE_CCURL_SHIM_H
#include <curl/curl.h>
/* curl_easy_setopt / curl_easy_getinfo are variadic: typed wrappers. */
static inline CURLcode shim_setopt_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode shim_setopt_str(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode shim_setopt_ptr(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode shim_setopt_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
typedef size_t (*shim_write_fn)(char *, size_t, size_t, void *);
static inline CURLcode shim_setopt_writefn(CURL *c, CURLoption o, shim_write_fn f) { return curl_easy_setopt(c, o, f); }
typedef size_t (*shim_read_fn)(char *, size_t, size_t, void *);
static inline CURLcode shim_setopt_readfn(CURL *c, CURLoption o, shim_read_fn f) { return curl_easy_setopt(c, o, f); }
/* Progress callback, used by the outbound client to abort a transfer whose Swift task was cancelled. */
typedef int (*shim_xferinfo_fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode shim_setopt_xferinfofn(CURL *c, CURLoption o, shim_xferinfo_fn f) { return curl_easy_setopt(c, o, f); }
static inline CURLcode shim_getinfo_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
#endif
