package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.ValidationMessage;
import io.agentgateway.schemas.WireCase.SchemaCheck;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The checked-in JSON Schemas describe what the Java types write: every sample validates, every
 * record component is a declared property (and every always-written primitive is required), every
 * enum lists exactly the wire names, and the schemas do reject what the contract forbids.
 */
class JsonSchemaConformanceTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void everySerializedSampleValidatesAgainstItsSchemas(WireCase wireCase) {
        JsonNode json = GatewayJson.MAPPER.valueToTree(wireCase.sample());
        for (SchemaCheck check : wireCase.schemas()) {
            assertThat(validate(check.schemaPath(), json.at(check.pointer())))
                    .as("%s at '%s'", check.schemaPath(), check.pointer())
                    .isEmpty();
        }
    }

    static Stream<String> schemaFiles() {
        return JsonSchemas.allPaths().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaFiles")
    void everySchemaFileIsAValidDraft202012SchemaWithItsOwnId(String path) {
        JsonNode schema = JsonSchemas.tree(path);
        assertThat(schema.path("$schema").asString()).isEqualTo(JsonSchemas.META_SCHEMA);
        assertThat(schema.path("$id").asString()).isEqualTo(JsonSchemas.BASE_ID + path);
        assertThat(JsonSchemas.validateAgainstMetaSchema(JsonSchemas.text(path))).isEmpty();
        JsonSchemas.load(path); // every $ref resolves
    }

    /** Each record type of the contract and the schema file that describes it. */
    static Map<Class<?>, String> schemaOfRecord() {
        Map<Class<?>, String> schemas = new LinkedHashMap<>();
        schemas.put(CommandEnvelope.class, WireCases.COMMAND_ENVELOPE_SCHEMA);
        schemas.put(EventEnvelope.class, WireCases.EVENT_ENVELOPE_SCHEMA);
        schemas.put(Reply.class, WireCases.REPLY_SCHEMA);
        schemas.put(NotificationRequested.class, WireCases.NOTIFICATION_SCHEMA);
        schemas.put(Actor.class, "common/actor.schema.json");
        schemas.put(Policy.class, "common/policy.schema.json");
        schemas.put(PolicyMatch.class, "common/policy_match.schema.json");
        schemas.put(EvaluationOutcome.class, "common/evaluation_outcome.schema.json");
        schemas.put(ToolConnection.class, "common/tool_connection.schema.json");
        schemas.put(ToolConnectionConfig.class, "common/tool_connection_config.schema.json");
        schemas.put(ClassificationRule.class, "common/classification_rule.schema.json");
        schemas.put(SecretUpdate.class, "common/secret_update.schema.json");
        schemas.put(SealedHeldCall.class, "common/sealed_held_call.schema.json");
        schemas.put(io.agentgateway.schemas.call.CallView.class, "common/call_view.schema.json");
        schemas.put(io.agentgateway.schemas.command.ApprovalSnapshot.class, "common/approval_snapshot.schema.json");
        schemas.put(ConditionError.class, "common/condition_error.schema.json");
        schemas.put(io.agentgateway.schemas.command.condition.ConditionInputs.class, "common/condition_inputs.schema.json");
        schemas.put(io.agentgateway.schemas.command.condition.RequestFacts.class, "common/request_facts.schema.json");
        schemas.put(io.agentgateway.schemas.command.condition.TargetFacts.class, "common/target_facts.schema.json");
        schemas.put(io.agentgateway.schemas.event.EvidenceSeal.class, "common/evidence_seal.schema.json");
        WireCases.typeNames(HeldCall.class).forEach((type, name) -> schemas.put(type, WireCases.heldCallSchema(name)));
        WireCases.typeNames(Command.class).forEach((type, name) -> schemas.put(type, WireCases.commandSchema(name)));
        WireCases.typeNames(DomainEvent.class).forEach((type, name) -> schemas.put(type, WireCases.eventSchema(name)));
        return schemas;
    }

    @Test
    void everyRecordOfTheContractHasASchema() {
        assertThat(schemaOfRecord().keySet()).containsExactlyInAnyOrderElementsOf(WireTypes.records());
    }

    static Stream<Arguments> recordsWithSchemas() {
        return schemaOfRecord().entrySet().stream().map(e -> Arguments.of(e.getKey().getSimpleName(), e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordsWithSchemas")
    void schemaDeclaresExactlyTheFieldsTheTypeWrites(String name, Class<?> type, String schemaPath) {
        JsonNode schema = JsonSchemas.tree(schemaPath);
        List<String> declared = schema.path("properties").propertyStream().map(Map.Entry::getKey).toList();
        List<String> required = schema.path("required").valueStream().map(JsonNode::asString).toList();
        boolean variant = Command.class.isAssignableFrom(type) || DomainEvent.class.isAssignableFrom(type)
                || HeldCall.class.isAssignableFrom(type);

        Stream<String> components = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName);
        List<String> written = Stream.concat(variant ? Stream.of("type") : Stream.empty(), components).toList();
        assertThat(declared).as("properties of %s", schemaPath).containsExactlyInAnyOrderElementsOf(written);
        assertThat(written).as("required of %s", schemaPath).containsAll(required);

        // GatewayJson leaves out only nulls, so primitives and the type id are always written
        List<String> alwaysWritten = Stream.concat(variant ? Stream.of("type") : Stream.empty(),
                Arrays.stream(type.getRecordComponents()).filter(c -> c.getType().isPrimitive()).map(RecordComponent::getName))
                .toList();
        assertThat(required).as("required of %s", schemaPath).containsAll(alwaysWritten);
        if (variant) {
            assertThat(schema.at("/properties/type/const").asString()).isEqualTo(schemaPath
                    .substring(schemaPath.indexOf('/') + 1, schemaPath.indexOf(".schema.json")));
        }
    }

    @Test
    void enumDefinitionsListExactlyTheWireNames() {
        JsonNode defs = JsonSchemas.tree("common/enums.schema.json").path("$defs");
        assertThat(defs.propertyStream().map(Map.Entry::getKey).toList())
                .containsExactlyInAnyOrderElementsOf(WireTypes.enums().stream().map(JsonSchemaConformanceTest::defName).toList());
        for (Class<?> type : WireTypes.enums()) {
            List<String> wireNames = Arrays.stream(type.getEnumConstants()).map(c -> GatewayJson.MAPPER.valueToTree(c).asString()).toList();
            assertThat(defs.path(defName(type)).path("enum").valueStream().map(JsonNode::asString).toList())
                    .as(type.getSimpleName())
                    .containsExactlyElementsOf(wireNames);
        }
    }

    private static String defName(Class<?> enumType) {
        return enumType.getSimpleName().replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    // --- the schemas reject what the contract forbids (and so are not vacuous) ---

    @Test
    void rejectsAnEnvelopeWithoutARequiredField() {
        ObjectNode json = sample("event_action_evaluated");
        json.remove("eventId");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "'eventId'");
    }

    @Test
    void rejectsAVariantWithoutARequiredField() {
        ObjectNode json = sample("command_evaluate_action");
        ((ObjectNode) json.get("command")).remove("tool");
        assertRejected(WireCases.COMMAND_ENVELOPE_SCHEMA, json, "'tool'");
    }

    @Test
    void rejectsAnUnknownVariantType() {
        ObjectNode json = sample("event_member_removed");
        ((ObjectNode) json.get("event")).put("type", "member_renamed");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "/event/type");
    }

    @Test
    void rejectsAnEnumValueInUpperCase() {
        ObjectNode json = sample("event_action_evaluated");
        ((ObjectNode) json.get("event")).put("decision", "ALLOW");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "/event/decision");
    }

    @Test
    void rejectsAWorkspaceIdThatIsNotAUuid() {
        ObjectNode json = sample("command_create_workspace");
        json.put("workspaceId", "acme");
        assertRejected(WireCases.COMMAND_ENVELOPE_SCHEMA, json, "/workspaceId");
    }

    @Test
    void rejectsAnInstantThatIsNotIso8601() {
        ObjectNode json = sample("command_create_workspace");
        json.put("acceptedAt", 1740821400123L);
        assertRejected(WireCases.COMMAND_ENVELOPE_SCHEMA, json, "/acceptedAt");
    }

    @Test
    void rejectsADurationThatIsNotIso8601() {
        ObjectNode json = sample("event_workspace_defaults_set");
        ((ObjectNode) json.get("event")).put("approvalTtl", "12 hours");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "/event/approvalTtl");
    }

    @Test
    void rejectsAPlainChatWebhookUrl() {
        ObjectNode json = sample("command_set_notification_settings");
        ((ObjectNode) json.get("command")).put("sealedChatWebhookUrl", "https://chat.example/hooks/T000/B000/XXXX");
        assertRejected(WireCases.COMMAND_ENVELOPE_SCHEMA, json, "/command/sealedChatWebhookUrl");
    }

    @Test
    void rejectsAClassificationRuleWithAnUnknownRisk() {
        ObjectNode json = sample("event_tool_connection_upserted_with_rules");
        ((ObjectNode) json.at("/event/connection/config/rules/0")).put("risk", "severe");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "/event/connection/config/rules/0/risk");
    }

    @Test
    void rejectsAPlainAccessTokenInAToolConnection() {
        ObjectNode json = sample("event_tool_connection_upserted");
        ((ObjectNode) json.at("/event/connection")).put("accessToken", "ghp_plainTokenThatMustNeverTravel");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "/event/connection/accessToken");
    }

    @Test
    void rejectsASecretUpdateThatSetsNothing() {
        ObjectNode json = sample("command_upsert_tool_connection");
        ((ObjectNode) json.at("/command/webhookSecret")).remove("sealed");
        assertRejected(WireCases.COMMAND_ENVELOPE_SCHEMA, json, "'sealed'");
    }

    @Test
    void rejectsARepoThatIsNotOwnerSlashRepo() {
        ObjectNode json = sample("command_upsert_tool_connection");
        ((tools.jackson.databind.node.ArrayNode) json.at("/command/config/repos")).add("just-a-repo");
        assertRejected(WireCases.COMMAND_ENVELOPE_SCHEMA, json, "/command/config/repos/2");
    }

    @Test
    void rejectsAFailedReplyWithoutAnError() {
        ObjectNode json = sample("reply");
        json.put("status", "forbidden");
        json.remove("error");
        json.remove("evaluation");
        assertRejected(WireCases.REPLY_SCHEMA, json, "'error'");
    }

    @Test
    void acceptsAnOkReplyWithoutAnError() {
        ObjectNode json = sample("reply");
        json.remove("error");
        assertThat(validate(WireCases.REPLY_SCHEMA, json)).isEmpty();
    }

    @Test
    void rejectsARequireApprovalDecisionWithoutAnApprovalId() {
        ObjectNode json = sample("event_action_evaluated");
        ((ObjectNode) json.get("event")).remove("approvalRequestId");
        ((ObjectNode) json.get("event")).remove("undelivered");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "'approvalRequestId'");
    }

    @Test
    void acceptsAnUndeliveredRequireApprovalDecisionWithoutAnApprovalId() {
        // decided after the caller's deadline: no approval was opened
        ObjectNode json = sample("event_action_evaluated");
        ((ObjectNode) json.get("event")).remove("approvalRequestId");
        ((ObjectNode) json.get("event")).put("undelivered", true);
        assertThat(validate(WireCases.EVENT_ENVELOPE_SCHEMA, json)).isEmpty();
    }

    @Test
    void rejectsWorkspaceDefaultsThatLackARiskLevel() {
        ObjectNode json = sample("event_workspace_defaults_set");
        ((ObjectNode) json.at("/event/decisions")).remove("critical");
        assertRejected(WireCases.EVENT_ENVELOPE_SCHEMA, json, "'critical'");
    }

    @Test
    void acceptsAnEnvelopeWithOnlyItsRequiredFields() {
        // optional fields are simply absent on the wire (GatewayJson leaves nulls out)
        ObjectNode json = sample("command_create_workspace");
        json.remove("replyPartition");
        json.set("actor", GatewayJson.MAPPER.valueToTree(Actor.user("user-42", null)));
        assertThat(validate(WireCases.COMMAND_ENVELOPE_SCHEMA, json)).isEmpty();
    }

    @Test
    void rejectsAnApprovalNotificationThatDoesNotNameItsApproval() {
        ObjectNode json = sample("notification_approval_requested");
        ((ObjectNode) json.get("details")).remove("approvalRequestId");
        assertRejected(WireCases.APPROVAL_NOTIFICATION_SCHEMA, json, "'approvalRequestId'");
    }

    @Test
    void rejectsAnApprovalNotificationOfAnotherKindOrWithANonStringDetail() {
        ObjectNode otherKind = sample("notification_approval_requested");
        otherKind.put("kind", "kill_switch");
        assertRejected(WireCases.APPROVAL_NOTIFICATION_SCHEMA, otherKind, "/kind");

        ObjectNode nested = sample("notification_approval_requested");
        ((ObjectNode) nested.get("details")).putObject("payload").put("token", "secret");
        assertRejected(WireCases.APPROVAL_NOTIFICATION_SCHEMA, nested, "/details/payload");
    }

    private static void assertRejected(String schemaPath, JsonNode json, String expectedInMessage) {
        assertThat(validate(schemaPath, json))
                .extracting(ValidationMessage::getMessage)
                .as("the violations reported by %s", schemaPath)
                .isNotEmpty()
                .anyMatch(message -> message.contains(expectedInMessage));
    }

    private static ObjectNode sample(String caseName) {
        WireCase wireCase = WireCases.all().stream().filter(c -> c.name().equals(caseName)).findFirst().orElseThrow();
        return GatewayJson.MAPPER.valueToTree(wireCase.sample());
    }

    private static Set<ValidationMessage> validate(String schemaPath, JsonNode json) {
        return JsonSchemas.validate(schemaPath, GatewayJson.MAPPER.writeValueAsString(json));
    }
}
