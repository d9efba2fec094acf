#ifndef GATEHOUSE_COPENSSL_SHIM_H
#define GATEHOUSE_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/kdf.h>
#include <openssl/x509.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <string.h>

/* Function-like macros Swift cannot import. */
static inline void shim_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline EVP_PKEY *shim_EVP_RSA_gen(unsigned int bits) { return EVP_RSA_gen(bits); }
static inline EVP_PKEY *shim_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }
static inline long shim_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline int shim_gcm_set_ivlen(EVP_CIPHER_CTX *c, int n) { return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, n, NULL); }
static inline int shim_gcm_get_tag(EVP_CIPHER_CTX *c, unsigned char *t, int n) { return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, n, t); }
static inline int shim_gcm_set_tag(EVP_CIPHER_CTX *c, unsigned char *t, int n) { return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, n, t); }
/* Selection constants built from other macros (Swift cannot import them). */
static inline int shim_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int shim_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }

/* A per-thread reserve of DRBG output for small requests (see SecureRandom.bytes in Crypto/Random.swift).
 * Bytes are handed out once, front to back, and wiped as they leave. Bytes left at thread exit are never used,
 * so they reveal nothing. A forked child wipes the reserve it inherited, so it never repeats the parent's bytes. */
enum { SHIM_RANDOM_RESERVE = 512, SHIM_RANDOM_LARGEST_SERVED = 128 };
struct shim_random_reserve { unsigned char bytes[SHIM_RANDOM_RESERVE]; size_t available; };
/* The calling thread's reserve. A function-local static, because Swift does not emit a header's file-scope
 * variables. */
static inline struct shim_random_reserve *shim_random_thread_reserve(void) {
    static __thread struct shim_random_reserve reserve;
    return &reserve;
}
static inline void shim_random_forget_after_fork(void) {
    struct shim_random_reserve *reserve = shim_random_thread_reserve();
    OPENSSL_cleanse(reserve->bytes, sizeof reserve->bytes);
    reserve->available = 0;
}
static inline void shim_random_register_fork_handler(void) {
    pthread_atfork(NULL, NULL, shim_random_forget_after_fork);
}
/* Bytes the calling thread's reserve still holds (for tests). */
static inline size_t shim_random_reserved_count(void) { return shim_random_thread_reserve()->available; }
/* 1 on success, 0 when the generator failed (nothing is served then). */
static inline int shim_random_bytes(unsigned char *out, size_t count) {
    static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;
    if (count > SHIM_RANDOM_LARGEST_SERVED) return RAND_bytes(out, (int)count);
    pthread_once(&fork_handler_once, shim_random_register_fork_handler);
    struct shim_random_reserve *reserve = shim_random_thread_reserve();
    if (count > reserve->available) {
        if (RAND_bytes(reserve->bytes, SHIM_RANDOM_RESERVE) != 1) {
            shim_random_forget_after_fork();
            return 0;
        }
        reserve->available = SHIM_RANDOM_RESERVE;
    }
    unsigned char *start = reserve->bytes + (SHIM_RANDOM_RESERVE - reserve->available);
    memcpy(out, start, count);
    OPENSSL_cleanse(start, count);
    reserve->available -= count;
    return 1;
}
#endif
