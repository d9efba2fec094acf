// libxcrypt (Debian's libcrypt-dev): crypt_rn, for verifying imported bcrypt hashes.
#include <crypt.h>
