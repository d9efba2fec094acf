#ifndef GATEHOUSE_CSQLITE_SHIM_H
#define GATEHOUSE_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a cast of -1 to a function pointer: not importable. */
static inline int shim_bind_text_transient(sqlite3_stmt *s, int i, const char *z, int n) { return sqlite3_bind_text(s, i, z, n, SQLITE_TRANSIENT); }
static inline int shim_bind_blob_transient(sqlite3_stmt *s, int i, const void *z, int n) { return sqlite3_bind_blob(s, i, z, n, SQLITE_TRANSIENT); }
/* Writes the connection's database file and, once the connection has opened it, its WAL to disk through SQLite's
   own file objects (the unix VFS's xSync: fdatasync), as a checkpoint does. A file not open yet is skipped. */
static inline int shim_sync_database_and_wal(sqlite3 *db) {
    int ops[2] = { SQLITE_FCNTL_FILE_POINTER, SQLITE_FCNTL_JOURNAL_POINTER };
    for (int i = 0; i < 2; i++) {
        sqlite3_file *file = 0;
        int rc = sqlite3_file_control(db, "main", ops[i], &file);
        if (rc != SQLITE_OK) return rc;
        if (file == 0 || file->pMethods == 0) continue;
        rc = file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}
#endif
