package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: with PostgreSQL down, audit-log and status hung 30 s (Hikari's default connection timeout)
 * and then answered 500. They answer 503 with the JSON error body within a few seconds.
 */
class ReadModelOutageTest {

    @Test
    void readsAnswer503FastWhilePostgresIsDown() {
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(null, 0);
        RunningIngress ingress = null;
        try {
            ingress = RunningIngress.start(SharedTestInfra.kafka().bootstrapServers(), TestDatabase.create(postgres),
                    Map.of(), true);
            UUID workspace = ingress.rows.workspace("outage");
            ingress.rows.member(workspace, "owner-1", "owner");
            String jwt = TestTokens.user("owner-1");
            assertThat(ingress.http.get("/admin/v1/workspaces/" + workspace + "/audit-log").bearer(jwt).send().status())
                    .isEqualTo(200);

            postgres.close();

            // a load balancer keeps the replica: evaluations never read PostgreSQL; monitoring sees it down
            TestHttp.Response readiness = ingress.management().get("/actuator/health/readiness").send();
            assertThat(readiness.status()).isEqualTo(200);
            assertThat(readiness.json().get("status").asString()).isEqualTo("UP");
            assertThat(ingress.management().get("/actuator/health").send().status()).isEqualTo(503);

            // the status endpoint asks the decision stream first (check_access, issue 12), which this ingress runs
            // without: it fails closed with 504 before any read; its read is the same Blocking/Hikari path as this one
            for (TestHttp.Request read : new TestHttp.Request[] {
                    ingress.http.get("/admin/v1/workspaces/" + workspace + "/audit-log").bearer(jwt),
                    ingress.http.get("/admin/v1/workspaces/" + workspace + "/approvals").bearer(jwt)}) {
                long start = System.nanoTime();
                TestHttp.Response response = read.send();
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(response.status()).isEqualTo(503);
                assertThat(response.error()).isEqualTo("Read model unavailable");
                assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
                assertThat(took).as("no 30 s hang").isLessThan(Duration.ofSeconds(8));
            }
        } finally {
            if (ingress != null) {
                ingress.close();
            }
            postgres.close();
        }
    }

    /**
     * An ingress of a new release started before the projector of that release migrated the schema (a rolling
     * upgrade out of order): a read of a column the old schema lacks is a 503 with the JSON body, not a 500.
     */
    @Test
    void readsAnswer503WhileTheSchemaIsBehindThisIngress() {
        // V8: before the audit log's undelivered column (V9) that the audit-log read selects
        try (RunningIngress ingress = RunningIngress.start(SharedTestInfra.kafka().bootstrapServers(),
                TestDatabase.createAt("8"), Map.of(), true)) {
            UUID workspace = ingress.rows.workspace("behind");
            ingress.rows.member(workspace, "owner-1", "owner");

            TestHttp.Response response = ingress.http.get("/admin/v1/workspaces/" + workspace + "/audit-log")
                    .bearer(TestTokens.user("owner-1")).send();

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.error()).isEqualTo("Read model unavailable");
            assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
        }
    }
}
