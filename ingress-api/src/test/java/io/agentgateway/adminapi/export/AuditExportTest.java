package io.agentgateway.adminapi.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The export core against a real PostgreSQL carrying the projector's schema. */
class AuditExportTest {
    private static final Instant T0 = Instant.parse("2031-03-01T12:00:00Z");
    /** A payload excerpt (JSON text) a CSV writer must quote: commas, quotes, an escaped line break, non-ASCII. */
    private static final String AWKWARD_PAYLOAD = "{\"title\":\"fix, \\\"now\\\"\",\"body\":\"line one\\nline two\",\"emoji\":\"é✓\"}";
    /** A caller-supplied value with a real line break, which CSV must keep inside one quoted field. */
    private static final String AWKWARD_AGENT = "agent, \"seven\"\r\nsecond line";

    private static Connection connection;
    private UUID workspace;

    @BeforeAll
    static void database() throws SQLException {
        TestDatabase database = TestDatabase.create();
        connection = DriverManager.getConnection(database.url, database.username, database.password);
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    @BeforeEach
    void freshWorkspace() {
        workspace = UUID.randomUUID();
    }

    @Test
    void jsonLinesCarryEveryFieldOfTheAuditApiPlusTheVersions() throws Exception {
        UUID id = insert(workspace, T0, "code_host", "block", "agent-7", AWKWARD_PAYLOAD, 42L);

        List<JsonNode> lines = jsonLines(AuditExportFilter.range(workspace, T0, T0.plusSeconds(1)));

        assertThat(lines).hasSize(1);
        JsonNode row = lines.get(0);
        assertThat(fieldNames(row)).containsExactly("id", "occurredAt", "kind", "tool", "action", "riskLevel",
                "suppliedRiskLevel", "riskClassification", "riskOverriddenByCaller", "decision", "reason",
                "matchedPolicyId", "matchedPolicyName", "approvalRequestId", "agentId", "agentName", "resourceType",
                "resourceId", "requestedBy", "source", "actorUserId", "correlationId", "commandId", "payloadExcerpt",
                "payloadTruncated", "payloadBytes", "policySetVersion", "workspaceVersion", "undelivered", "agentIdentity",
                "conditionErrors");
        assertThat(row.get("id").asString()).isEqualTo(id.toString());
        assertThat(row.get("occurredAt").asString()).isEqualTo("2031-03-01T12:00:00Z");
        assertThat(row.get("tool").asString()).isEqualTo("code_host");
        assertThat(row.get("decision").asString()).isEqualTo("block");
        assertThat(row.get("reason").asString()).isEqualTo("Matched policy \"no, merges\"");
        assertThat(row.get("riskOverriddenByCaller").booleanValue()).isTrue();
        assertThat(row.get("payloadExcerpt").asString()).isEqualTo(AWKWARD_PAYLOAD);
        assertThat(row.get("payloadTruncated").booleanValue()).isFalse();
        assertThat(row.get("payloadBytes").intValue()).isEqualTo(AWKWARD_PAYLOAD.getBytes(StandardCharsets.UTF_8).length);
        assertThat(row.get("policySetVersion").longValue()).isEqualTo(42L);
        assertThat(row.get("workspaceVersion").longValue()).isEqualTo(43L);
        assertThat(row.get("agentName").isNull()).as("absent values are written as null").isTrue();
        assertThat(row.get("approvalRequestId").isNull()).isTrue();
    }

    @Test
    void jsonLinesAreOneObjectPerLineEachEndingInANewline() throws Exception {
        for (int i = 0; i < 3; i++) {
            insert(workspace, T0.plusSeconds(i), "chat", "allow", "a", AWKWARD_PAYLOAD, 1L);
        }

        String text = export(AuditExportFilter.range(workspace, T0, T0.plusSeconds(10)), AuditExportFormat.JSONL);

        assertThat(text).endsWith("}\n");
        String[] lines = text.split("\n", -1);
        assertThat(lines).hasSize(4);
        assertThat(lines[3]).isEmpty();
        for (int i = 0; i < 3; i++) {
            assertThat(lines[i]).startsWith("{\"id\":").endsWith("}");
        }
    }

    @Test
    void rowsComeOldestFirstWithTheIdBreakingTies() throws Exception {
        List<UUID> sameInstant = new ArrayList<>();
        insert(workspace, T0.plusSeconds(5), "chat", "allow", "a", "{}", 1L);
        for (int i = 0; i < 5; i++) {
            sameInstant.add(insert(workspace, T0.plusSeconds(1), "chat", "allow", "a", "{}", 1L));
        }
        UUID first = insert(workspace, T0, "chat", "allow", "a", "{}", 1L);

        List<String> ids = jsonLines(AuditExportFilter.range(workspace, T0, T0.plusSeconds(60))).stream()
                .map(row -> row.get("id").asString()).toList();

        List<String> expectedTies = sameInstant.stream().map(UUID::toString).sorted().toList();
        assertThat(ids).hasSize(7);
        assertThat(ids.get(0)).isEqualTo(first.toString());
        assertThat(ids.subList(1, 6)).containsExactlyElementsOf(expectedTies);
    }

    @Test
    void fromIsInclusiveToIsExclusiveAndMicrosecondsCount() throws Exception {
        Instant from = T0;
        Instant to = T0.plusSeconds(10);
        insert(workspace, from.minusNanos(1_000), "chat", "allow", "before", "{}", 1L);
        UUID atFrom = insert(workspace, from, "chat", "allow", "at-from", "{}", 1L);
        UUID justBeforeTo = insert(workspace, to.minusNanos(1_000), "chat", "allow", "last", "{}", 1L);
        insert(workspace, to, "chat", "allow", "at-to", "{}", 1L);

        List<JsonNode> rows = jsonLines(AuditExportFilter.range(workspace, from, to));

        assertThat(rows).extracting(row -> row.get("id").asString()).containsExactly(atFrom.toString(), justBeforeTo.toString());
        assertThat(rows.get(1).get("occurredAt").asString()).isEqualTo("2031-03-01T12:00:09.999999Z");
    }

    @Test
    void anExportHoldsOnlyItsOwnWorkspace() throws Exception {
        UUID other = UUID.randomUUID();
        UUID mine = insert(workspace, T0, "chat", "allow", "a", "{}", 1L);
        insert(other, T0, "chat", "allow", "a", "{}", 1L);

        assertThat(jsonLines(AuditExportFilter.range(workspace, T0, T0.plusSeconds(1))))
                .extracting(row -> row.get("id").asString()).containsExactly(mine.toString());
    }

    @Test
    void theQueryApisFiltersNarrowTheExport() throws Exception {
        UUID match = insert(workspace, T0, "code_host", "block", "agent-a", "{}", 1L);
        insert(workspace, T0, "mcp", "block", "agent-a", "{}", 1L);
        insert(workspace, T0, "code_host", "allow", "agent-a", "{}", 1L);
        insert(workspace, T0, "code_host", "block", "agent-b", "{}", 1L);

        AuditExportFilter filter = new AuditExportFilter(workspace, T0, T0.plusSeconds(1), null, "agent-a", Tool.CODE_HOST, Decision.BLOCK);

        assertThat(jsonLines(filter)).extracting(row -> row.get("id").asString()).containsExactly(match.toString());
    }

    @Test
    void csvHasAHeaderRowAndQuotesCommasQuotesAndLineBreaks() throws Exception {
        UUID id = insert(workspace, T0, "code_host", "block", AWKWARD_AGENT, AWKWARD_PAYLOAD, 42L);
        insert(workspace, T0.plusSeconds(1), "chat", "allow", "plain", "{}", 3L);

        String text = export(AuditExportFilter.range(workspace, T0, T0.plusSeconds(10)), AuditExportFormat.CSV);

        assertThat(text).startsWith(String.join(",", AuditExportColumn.fields()) + "\r\n");
        assertThat(text).contains("\"agent, \"\"seven\"\"\r\nsecond line\"");
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(text)).getRecords();
        assertThat(records).hasSize(2);
        CSVRecord first = records.get(0);
        assertThat(first.get("id")).isEqualTo(id.toString());
        assertThat(first.get("occurredAt")).isEqualTo("2031-03-01T12:00:00Z");
        assertThat(first.get("agentId")).isEqualTo(AWKWARD_AGENT);
        assertThat(first.get("payloadExcerpt")).isEqualTo(AWKWARD_PAYLOAD);
        assertThat(GatewayJson.MAPPER.readTree(first.get("payloadExcerpt")).get("body").asString()).isEqualTo("line one\nline two");
        assertThat(first.get("reason")).isEqualTo("Matched policy \"no, merges\"");
        assertThat(first.get("riskOverriddenByCaller")).isEqualTo("true");
        assertThat(first.get("policySetVersion")).isEqualTo("42");
        assertThat(first.get("agentName")).as("null is an empty field").isEmpty();
        assertThat(records.get(1).get("policySetVersion")).isEqualTo("3");
    }

    /**
     * Issue 14 (OWASP CSV injection): caller-supplied text that a spreadsheet would run as a formula is
     * written with a leading {@code '} in CSV; the JSON Lines export keeps every value exactly.
     */
    @Test
    void csvCellsThatASpreadsheetWouldRunAsFormulasGetALeadingQuoteAndJsonLinesStayExact() throws Exception {
        List<String> formulas = List.of("=HYPERLINK(\"http://evil.test\",\"x\")", "+1+cmd|' /C calc'!A0", "-2+3",
                "@SUM(A1:A2)", "\tTAB", "\rCR");
        for (int i = 0; i < formulas.size(); i++) {
            insert(workspace, T0.plusSeconds(i), "chat", "allow", formulas.get(i), "{}", 1L);
        }
        insert(workspace, T0.plusSeconds(10), "chat", "allow", "plain-agent", "{}", 1L);
        AuditExportFilter range = AuditExportFilter.range(workspace, T0, T0.plusSeconds(20));

        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(export(range, AuditExportFormat.CSV))).getRecords();
        assertThat(records).extracting(r -> r.get("agentId")).containsExactly(
                "'=HYPERLINK(\"http://evil.test\",\"x\")", "'+1+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1:A2)", "'\tTAB", "'\rCR",
                "plain-agent");
        // our own values are never touched: timestamps, numbers, booleans, ids
        assertThat(records.get(0).get("occurredAt")).isEqualTo("2031-03-01T12:00:00Z");
        assertThat(records.get(0).get("riskOverriddenByCaller")).isEqualTo("true");
        assertThat(jsonLines(range)).extracting(row -> row.get("agentId").asString())
                .containsExactly(formulas.get(0), formulas.get(1), formulas.get(2), formulas.get(3), formulas.get(4),
                        formulas.get(5), "plain-agent");
    }

    @Test
    void anEmptyRangeIsAnEmptyFileOrAHeaderOnly() throws Exception {
        AuditExportFilter nothing = AuditExportFilter.range(workspace, T0, T0.plusSeconds(1));

        assertThat(export(nothing, AuditExportFormat.JSONL)).isEmpty();
        assertThat(export(nothing, AuditExportFormat.CSV)).isEqualTo(String.join(",", AuditExportColumn.fields()) + "\r\n");
    }

    @Test
    void theConnectionIsHandedBackAsItCameWhetherTheExportSucceededOrItsStreamFailed() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            insert(workspace, T0.plusMillis(i), "chat", "allow", "a", AWKWARD_PAYLOAD, 1L);
        }
        AuditExportFilter filter = AuditExportFilter.range(workspace, T0, T0.plusSeconds(60));

        assertThat(AuditExport.write(connection, filter, AuditExportFormat.JSONL, OutputStream.nullOutputStream())).isEqualTo(2_000);
        assertThat(connection.getAutoCommit()).isTrue();
        assertThat(connection.isReadOnly()).isFalse();

        OutputStream brokenAfter64KiB = new OutputStream() {
            private long written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                written += len;
                if (written > 64 * 1024) {
                    throw new IOException("client went away");
                }
            }
        };
        for (AuditExportFormat format : AuditExportFormat.values()) {
            assertThatThrownBy(() -> AuditExport.write(connection, filter, format, brokenAfter64KiB))
                    .hasStackTraceContaining("client went away");
        }
        assertThat(connection.getAutoCommit()).isTrue();
        assertThat(connection.isReadOnly()).isFalse();
        try (var s = connection.createStatement(); var rs = s.executeQuery("select count(*) from audit_log where workspace_id = '" + workspace + "'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the connection still works").isEqualTo(2_000);
        }
    }

    @Test
    void theFilterRefusesAnEmptyOrInvertedRange() {
        assertThatThrownBy(() -> AuditExportFilter.range(workspace, T0, T0)).hasMessage("from must be before to");
        assertThatThrownBy(() -> AuditExportFilter.range(workspace, T0, T0.minusSeconds(1))).hasMessage("from must be before to");
    }

    @Test
    void formatsAreParsedByTheirWireNames() {
        assertThat(AuditExportFormat.parse("jsonl")).contains(AuditExportFormat.JSONL);
        assertThat(AuditExportFormat.parse("csv")).contains(AuditExportFormat.CSV);
        assertThat(AuditExportFormat.parse("xml")).isEmpty();
        assertThat(AuditExportFormat.MESSAGE).isEqualTo("format must be one of: jsonl, csv");
    }

    private static List<String> fieldNames(JsonNode row) {
        List<String> names = new ArrayList<>();
        row.propertyNames().forEach(names::add);
        return names;
    }

    private static List<JsonNode> jsonLines(AuditExportFilter filter) throws Exception {
        String text = export(filter, AuditExportFormat.JSONL);
        return text.isEmpty() ? List.of() : Arrays.stream(text.split("\n")).map(GatewayJson.MAPPER::readTree).toList();
    }

    private static String export(AuditExportFilter filter, AuditExportFormat format) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long rows = AuditExport.write(connection, filter, format, out);
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(rows).isNotNegative();
        return text;
    }

    private static UUID insert(UUID workspaceId, Instant at, String tool, String decision, String agentId, String payload,
                               long policySetVersion) throws SQLException {
        UUID id = UUID.randomUUID();
        try (PreparedStatement s = connection.prepareStatement("""
                insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind, tool,
                    action, risk_level, supplied_risk_level, risk_classification, risk_overridden_by_caller, decision,
                    reason, matched_policy_id, matched_policy_name, agent_id, source, payload_excerpt,
                    payload_truncated, payload_bytes, policy_set_version, workspace_version)
                values (?, ?, ?, ?, ?, ?, 'action_evaluated', ?, 'pull_request.merge', 'high', 'low', 'server_classified',
                    true, ?, 'Matched policy "no, merges"', 'p-1', 'no, merges', ?, 'evaluate', ?, false, ?, ?, ?)
                """)) {
            s.setObject(1, id);
            s.setObject(2, workspaceId);
            s.setObject(3, UUID.randomUUID());
            s.setString(4, UUID.randomUUID().toString());
            s.setString(5, UUID.randomUUID().toString());
            s.setObject(6, at.atOffset(ZoneOffset.UTC));
            s.setString(7, tool);
            s.setString(8, decision);
            s.setString(9, agentId);
            s.setString(10, payload);
            s.setInt(11, payload.getBytes(StandardCharsets.UTF_8).length);
            s.setLong(12, policySetVersion);
            s.setLong(13, policySetVersion + 1);
            s.executeUpdate();
        }
        return id;
    }
}
