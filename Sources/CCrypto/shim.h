#ifndef STRATA_CCRYPTO_SHIM_H
#define STRATA_CCRYPTO_SHIM_H

/// Only libcrypto's SHA-256, SHA-512 and MD5 are used: their one-shot context API (a
/// plain C struct, so a hasher copies by value), which OpenSSL 3 marks deprecated in
/// favour of EVP but still exports; the EVP API would need a heap context.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <openssl/md5.h>

#endif
