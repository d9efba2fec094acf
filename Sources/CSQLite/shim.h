#ifndef GATEHOUSE_CSQLITE_SHIM_H
#define GATEHOUSE_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a cast of -1 to a function pointer: not importable. */
static inline int shim_bind_text_transient(sqlite3_stmt *s, int i, const char *z, int n) { return sqlite3_bind_text(s, i, z, n, SQLITE_TRANSIENT); }
static inline int shim_bind_blob_transient(sqlite3_stmt *s, int i, const void *z, int n) { return sqlite3_bind_blob(s, i, z, n, SQLITE_TRANSIENT); }
#endif
