package io.agentgateway.adminapi.export;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Writes the current row of a result set in the export's column order; holds no row after writing it. */
interface AuditRowWriter {

    void write(ResultSet row) throws SQLException, IOException;

    /** Flushes what is buffered; the target stream is left open (it belongs to the caller). */
    void finish() throws IOException;
}
