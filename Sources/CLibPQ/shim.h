#ifndef GATEHOUSE_CLIBPQ_SHIM_H
#define GATEHOUSE_CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* The PG_DIAG_* field codes are character-literal macros, which Swift does not import. */
static inline int shim_PG_DIAG_SQLSTATE(void) { return PG_DIAG_SQLSTATE; }
static inline int shim_PG_DIAG_MESSAGE_PRIMARY(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int shim_PG_DIAG_CONSTRAINT_NAME(void) { return PG_DIAG_CONSTRAINT_NAME; }
#endif
