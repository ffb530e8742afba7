package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.projector.consume.SkipReason;
import io.agentgateway.projector.readmodel.ReadModelSwitchLock;
import io.agentgateway.projector.rebuild.ReadModelRebuild;
import io.agentgateway.projector.rebuild.RebuildException;
import io.agentgateway.projector.rebuild.RebuildProgress;
import io.agentgateway.projector.rebuild.RebuildResult;
import io.agentgateway.projector.rebuild.RebuildSettings;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WebhookReceived;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The rebuild against a running projector: the rebuilt tables equal a projection that was never
 * rebuilt, row for row, also for the events that arrived during the rebuild and its switch.
 *
 * <p>The reference is a second live projector on a database of its own that reads the same log. The
 * compared database is the one the rebuild switched: its tables hold what the rebuild wrote up to the
 * switch and what its live projector wrote after. {@code audit_log.projected_at} (when a row was
 * written) is the one column not compared ({@link ReadModelTables#BOOKKEEPING}).
 */
class ReadModelRebuildTest {
    private static final Set<String> SCHEMA_TABLES = tablesWithFlywayHistory();

    @Test
    void aRebuildWhileEventsArriveEqualsTheLiveProjectionRowForRowAndLosesNothing() throws Exception {
        String liveUrl = SharedTestInfra.postgres().createDatabase("rebuild_live");
        String liveGroup = "projector-rebuild-live-" + UUID.randomUUID();
        RunningProjector live = RunningProjector.startOn(liveUrl, liveGroup);
        RunningProjector reference = RunningProjector.start("rebuild_reference");
        try (EventPublisher publisher = new EventPublisher()) {
            PartitionMarkers markers = PartitionMarkers.forEveryPartition();
            List<WorkspaceEvents> workspaces = IntStream.range(0, 4).mapToObj(i -> new WorkspaceEvents()).toList();
            for (WorkspaceEvents ws : workspaces) {
                publisher.publish(history(ws));
            }
            // skipped by the live projector, so by the rebuild too
            publisher.publishRaw(workspaces.get(0).workspaceId, "not an event".getBytes(StandardCharsets.UTF_8));
            markers.publishAndAwait(publisher, live.jdbc(), reference.jdbc());

            List<RebuildProgress> reports = new CopyOnWriteArrayList<>();
            RebuildResult result;
            List<EventEnvelope> arrivedMeanwhile;
            try (BackgroundTraffic traffic = BackgroundTraffic.start(publisher, workspaces)) {
                eventually().until(traffic::publishedCount, count -> count > 200);
                // small transactions and an early switch, so this small log still goes through every phase
                result = ReadModelRebuild.run(new RebuildSettings(SharedTestInfra.kafka().bootstrapServers(), liveUrl,
                        SharedTestInfra.postgres().username(), SharedTestInfra.postgres().password(), 500, 50,
                        Duration.ofMillis(100), Duration.ofSeconds(30)), reports::add);
                int atSwitch = traffic.publishedCount();
                // and it goes on after the switch, now into the rebuilt tables
                eventually().until(traffic::publishedCount, count -> count > atSwitch + 200);
                arrivedMeanwhile = traffic.stop();
            }
            markers.publishAndAwait(publisher, live.jdbc(), reference.jdbc());

            assertThat(ReadModelTables.tableNames(live.jdbc(), "public")).containsExactlyInAnyOrderElementsOf(SCHEMA_TABLES);
            Map<String, List<Map<String, Object>>> rebuilt = ReadModelTables.read(live.jdbc(), "public");
            Map<String, List<Map<String, Object>>> expected = ReadModelTables.read(reference.jdbc(), "public");
            for (String table : ReadModelTables.TABLES.keySet()) {
                assertThat(rebuilt.get(table)).as(table).isNotEmpty().containsExactlyElementsOf(expected.get(table));
            }
            // the indexes dropped for the load were built again exactly as the migrations define them
            assertThat(indexes(live.jdbc())).isNotEmpty().isEqualTo(indexes(reference.jdbc()));
            assertThat(auditLogIds(live.jdbc())).containsAll(auditIdsOf(arrivedMeanwhile));

            assertThat(result.tables()).containsExactlyInAnyOrderElementsOf(SCHEMA_TABLES);
            assertThat(result.skipped()).containsKey(SkipReason.UNREADABLE);
            assertThat(result.eventsProjected()).isLessThan(result.eventsRead()).isPositive();
            // the previous live tables are kept, with what they had at the switch
            assertThat(ReadModelTables.tableNames(live.jdbc(), result.archiveSchema()))
                    .containsExactlyInAnyOrderElementsOf(SCHEMA_TABLES);
            assertThat(live.jdbc().queryForObject("select count(*) from " + result.archiveSchema() + ".audit_log",
                    Long.class)).isPositive();
            assertThat(live.jdbc().queryForList("select nspname from pg_namespace where nspname like 'read_models_rebuild_%'",
                    String.class)).isEmpty();

            assertThat(reports).isNotEmpty();
            assertThat(reports).extracting(RebuildProgress::phase).contains(RebuildProgress.Phase.SWITCHING);
            RebuildProgress last = reports.get(reports.size() - 1);
            assertThat(last.eventsRead()).isEqualTo(result.eventsRead());
            assertThat(last.percent()).isBetween(0.0, 100.0);
            assertThat(last.partitions()).isNotEmpty();
            assertThat(reports).extracting(RebuildProgress::eventsRead).isSorted();
        } finally {
            live.close();
            reference.close();
        }

        // the Flyway history moved with the tables: the projector validates it at its next start and goes on
        RunningProjector restarted = RunningProjector.startOn(liveUrl, liveGroup);
        try (EventPublisher publisher = new EventPublisher()) {
            assertThat(restarted.jdbc().queryForList("select version from flyway_schema_history where success", String.class))
                    .containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
                            "16", "17", "18", "20", "21", "22", "23");
            PartitionMarkers.forEveryPartition().publishAndAwait(publisher, restarted.jdbc());
        } finally {
            restarted.close();
        }
    }

    @Test
    void whileTheSwitchLockIsHeldTheLiveProjectorWritesNothingAndThenGoesOn() throws Exception {
        RunningProjector projector = RunningProjector.start("rebuild_lock");
        try (EventPublisher publisher = new EventPublisher();
             Connection rebuild = connect(projector)) {
            PartitionMarkers.forEveryPartition().publishAndAwait(publisher, projector.jdbc());
            double failedBefore = projector.failedBatches();

            rebuild.setAutoCommit(false);
            try (Statement statement = rebuild.createStatement()) {
                statement.execute(ReadModelSwitchLock.EXCLUSIVE);
            }
            WorkspaceEvents ws = new WorkspaceEvents();
            EventEnvelope evaluation = ws.evaluation("held.read");
            publisher.publish(ws.created("Held"), evaluation);
            // the live projector has the batch and waits for its shared lock behind ours
            eventually().until(() -> projector.jdbc().queryForObject(
                    "select count(*) from pg_locks where locktype = 'advisory' and not granted", Integer.class),
                    waiting -> waiting > 0);
            assertThat(auditRows(projector.jdbc(), evaluation)).isZero();

            rebuild.commit();
            eventually().until(() -> auditRows(projector.jdbc(), evaluation), count -> count == 1);
            // it waited; nothing failed or was retried
            assertThat(projector.failedBatches()).isEqualTo(failedBefore);
        } finally {
            projector.close();
        }
    }

    @Test
    void aRebuildThatCannotSwitchLeavesTheLiveTablesAsTheyWere() throws Exception {
        RunningProjector projector = RunningProjector.start("rebuild_refused");
        String url = projector.jdbcUrl();
        try (EventPublisher publisher = new EventPublisher();
             Connection other = connect(projector)) {
            PartitionMarkers.forEveryPartition().publishAndAwait(publisher, projector.jdbc());
            Map<String, List<Map<String, Object>>> before = ReadModelTables.read(projector.jdbc(), "public");

            // another rebuild holds the rebuild lock
            try (Statement statement = other.createStatement()) {
                statement.execute("select pg_advisory_lock(" + ReadModelRebuild.REBUILD_LOCK_KEY + ")");
            }
            assertThatThrownBy(() -> ReadModelRebuild.run(settings(url, Duration.ofSeconds(5)), progress -> {}))
                    .isInstanceOf(RebuildException.class).hasMessageContaining("another rebuild");
            try (Statement statement = other.createStatement()) {
                statement.execute("select pg_advisory_unlock(" + ReadModelRebuild.REBUILD_LOCK_KEY + ")");
            }

            // a writer that never lets go of the switch lock
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute(ReadModelSwitchLock.SHARED);
            }
            assertThatThrownBy(() -> ReadModelRebuild.run(settings(url, Duration.ofSeconds(2)), progress -> {}))
                    .isInstanceOf(RebuildException.class).hasMessageContaining("switch lock was not granted");
            other.rollback();

            assertThat(ReadModelTables.read(projector.jdbc(), "public")).isEqualTo(before);
            assertThat(projector.jdbc().queryForList(
                    "select nspname from pg_namespace where nspname like 'read_models_%'", String.class)).isEmpty();
        } finally {
            projector.close();
        }
    }

    @Test
    void unreachableKafkaOrDatabaseIsOneClearError() {
        var postgres = SharedTestInfra.postgres();
        String url = postgres.createDatabase("rebuild_unreachable");
        assertThatThrownBy(() -> ReadModelRebuild.run(RebuildSettings.of(SharedTestInfra.kafka().bootstrapServers(),
                "jdbc:postgresql://127.0.0.1:1/nowhere", "u", "p").withTimeout(Duration.ofSeconds(2)), progress -> {}))
                .isInstanceOf(RebuildException.class).hasMessageContaining("PostgreSQL at jdbc:postgresql://127.0.0.1:1/nowhere");
        assertThatThrownBy(() -> ReadModelRebuild.run(RebuildSettings.of("127.0.0.1:1", url, postgres.username(),
                postgres.password()).withTimeout(Duration.ofSeconds(2)), progress -> {}))
                .isInstanceOf(RebuildException.class).hasMessageContaining("Kafka at 127.0.0.1:1 did not answer");
        assertThat(new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(url,
                postgres.username(), postgres.password())).queryForList(
                "select nspname from pg_namespace where nspname like 'read_models_%'", String.class)).isEmpty();
    }

    /** Every kind of event the projector knows, with deletes and revocations, in one workspace. */
    private static List<EventEnvelope> history(WorkspaceEvents ws) {
        String kept = UUID.randomUUID().toString();
        String deleted = UUID.randomUUID().toString();
        String key = UUID.randomUUID().toString();
        String revoked = UUID.randomUUID().toString();
        List<EventEnvelope> events = new ArrayList<>(List.of(
                ws.created("Rebuild " + ws.workspaceId),
                ws.stateChange(c -> new MemberSet("alice", "alice@example.com", Role.ADMIN)),
                ws.stateChange(c -> new MemberSet("bob", "bob@example.com", Role.MEMBER)),
                ws.stateChange(c -> new MemberRemoved("bob")),
                ws.stateChange(c -> new NotificationSettingsSet(true, false)),
                ws.policyChange(c -> new WorkspaceDefaultsSet(Map.of(RiskLevel.LOW, Decision.ALLOW,
                        RiskLevel.HIGH, Decision.BLOCK), Duration.ofMinutes(30))),
                ws.policyChange(c -> new PolicyUpserted(new Policy(kept, "no merges", 10, true, Decision.BLOCK,
                        new PolicyMatch(Set.of(Tool.CODE_HOST), List.of("pull_request.merge"), Set.of(), List.of("bot-*"),
                                List.of(), List.of(), Set.of()), "bots never merge"))),
                ws.policyChange(c -> new PolicyUpserted(new Policy(deleted, "temporary", 20, false, Decision.ALLOW,
                        PolicyMatch.any(), null))),
                ws.policyChange(c -> new PolicyDeleted(deleted)),
                ws.stateChange(c -> new ApiKeyIssued(key, "ci", "hash-" + key, Set.of(Scope.EVALUATE), null)),
                ws.stateChange(c -> new ApiKeyIssued(revoked, "old", "hash-" + revoked, Set.of(Scope.MCP), null)),
                ws.stateChange(c -> new ApiKeyRevoked(revoked)),
                ws.stateChange(c -> new KillSwitchChanged(DerivedIds.auditLogId(c), KillSwitchAction.PAUSE_TOOL, Tool.MCP,
                        false, Set.of(Tool.MCP)))));
        // a stale event (an older version): changes no current state, live or rebuilt
        events.add(ws.atVersion(2, c -> new MemberSet("bob", "bob@example.com", Role.OWNER)));
        ws.actingAs(Actor.apiKey("hash-" + key, "agent-1"));
        for (int i = 0; i < 300; i++) {
            events.add(ws.evaluation("docs.read." + i));
        }
        ws.actingAs(WorkspaceEvents.ADMIN);
        for (int i = 0; i < 20; i++) {
            String delivery = "delivery-" + i;
            events.add(ws.record(c -> new WebhookReceived(DerivedIds.webhookEventId(c), Tool.CODE_HOST, delivery, "push",
                    "push", true, Decision.ALLOW, DerivedIds.auditLogId(c), "{\"ref\":\"refs/heads/main\"}", false, 24)));
        }
        return events;
    }

    private static RebuildSettings settings(String url, Duration timeout) {
        var postgres = SharedTestInfra.postgres();
        return RebuildSettings.of(SharedTestInfra.kafka().bootstrapServers(), url, postgres.username(), postgres.password())
                .withTimeout(timeout);
    }

    private static Connection connect(RunningProjector projector) throws Exception {
        var postgres = SharedTestInfra.postgres();
        return DriverManager.getConnection(projector.jdbcUrl(), postgres.username(), postgres.password());
    }

    private static long auditRows(JdbcTemplate jdbc, EventEnvelope evaluation) {
        return jdbc.queryForObject("select count(*) from audit_log where id = ?::uuid", Long.class,
                DerivedIds.auditLogId(evaluation.commandId()));
    }

    private static List<Map<String, Object>> indexes(JdbcTemplate jdbc) {
        return jdbc.queryForList("select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'"
                + " order by tablename, indexname");
    }

    private static Set<String> auditLogIds(JdbcTemplate jdbc) {
        return Set.copyOf(jdbc.queryForList("select id::text from audit_log", String.class));
    }

    /** Evaluations and kill-switch changes have an audit row; approvals theirs in approval_requests. */
    private static List<String> auditIdsOf(List<EventEnvelope> events) {
        return events.stream()
                .filter(e -> e.event() instanceof io.agentgateway.schemas.event.ActionEvaluated
                        || e.event() instanceof KillSwitchChanged)
                .map(e -> DerivedIds.auditLogId(e.commandId()))
                .toList();
    }

    private static Set<String> tablesWithFlywayHistory() {
        Set<String> tables = new java.util.HashSet<>(ReadModelTables.TABLES.keySet());
        tables.add("flyway_schema_history");
        return Set.copyOf(tables);
    }
}
