package io.agentgateway.projector.readmodel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

class WriteBatchesLatestTest {
    private static final SqlStatement LAST_USE = SqlStatement.amendingAppendedLatestPer(
            "update api_keys set last_used_at = :occurred_at where key_hash = :key_hash", "workspace_id", "key_hash");

    private static SqlParameterSource use(String workspace, String key, String at) {
        return new MapSqlParameterSource().addValue("workspace_id", workspace).addValue("key_hash", key)
                .addValue("occurred_at", at);
    }

    @Test
    void ofWritesThatSupersedeEachOtherOnlyTheLastOfEachKeyRuns() {
        List<SqlParameterSource> batch = List.of(use("w1", "k1", "10:00"), use("w1", "k2", "10:01"),
                use("w1", "k1", "10:02"), use("w2", "k1", "10:03"), use("w1", "k1", "10:04"));

        List<SqlParameterSource> written = WriteBatches.latestOnly(LAST_USE, batch);

        assertThat(written).extracting(p -> p.getValue("workspace_id") + "/" + p.getValue("key_hash") + "@"
                + p.getValue("occurred_at")).containsExactly("w1/k2@10:01", "w2/k1@10:03", "w1/k1@10:04");
    }

    @Test
    void otherAmendmentsRunAsTheyCame() {
        SqlStatement undelivered = SqlStatement.amendingAppended("update audit_log set undelivered = true where id = :id");
        List<SqlParameterSource> batch = List.of(new MapSqlParameterSource("id", "a"), new MapSqlParameterSource("id", "a"));

        assertThat(WriteBatches.latestOnly(undelivered, batch)).isSameAs(batch);
    }
}
