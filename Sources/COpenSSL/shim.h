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
#endif
