package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.agentgateway.schemas.Topics.Topic;
import io.agentgateway.schemas.WireCase.SchemaCheck;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * v1 records written today must keep reading tomorrow. src/test/resources/golden/v1 holds, per wire
 * case, the pretty JSON its sample serialized to when the case was added; those files are never
 * edited. Each must still read to its sample, through the mapper and through the topic's serde.
 *
 * <p>An additive change (a new optional field) leaves the old files valid: a golden file is compared
 * with the sample restricted to the fields the file has, so an old record reads with the new field
 * absent. Renaming, removing or retyping a field fails here (every field of a golden file must still
 * be read back with its value), and so does making a field required (the golden files are validated
 * against the current schemas too).
 *
 * <p>A new case without a golden file fails with instructions; run the build once with
 * {@code -Dgolden.writeMissing=true} to write the missing files (existing files are never overwritten).
 */
class GoldenFilesTest {
    static final Path GOLDEN_DIR = Path.of("src/test/resources/golden/v1");
    static final String UNKNOWN_FIELDS_FILE = "event_action_evaluated_with_unknown_fields.json";

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void goldenFileStillReadsToTheSample(WireCase wireCase) throws IOException {
        String golden = readOrWriteMissing(wireCase);
        Object expected = expectedFromGolden(wireCase.sample(), golden);

        assertThat(GatewayJson.MAPPER.readValue(golden, wireCase.type())).isEqualTo(expected);
        for (Topic<String, ?> topic : wireCase.topics()) {
            Object viaSerde = RoundTripTest.valueSerde(topic).deserializer()
                    .deserialize(topic.name(), golden.getBytes(StandardCharsets.UTF_8));
            assertThat(viaSerde).as(topic.name()).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void everyFieldOfTheGoldenFileIsStillRead(WireCase wireCase) throws IOException {
        // catches a renamed or removed field, which the comparison above cannot see when it is optional
        JsonNode golden = GatewayJson.MAPPER.readTree(readOrWriteMissing(wireCase));
        JsonNode reread = GatewayJson.MAPPER.valueToTree(GatewayJson.MAPPER.treeToValue(golden, wireCase.type()));
        assertThat(lostFields(golden, reread, "")).as("fields of %s that the current types drop or change", wireCase.goldenFile())
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void goldenFileStillValidatesAgainstTheSchemas(WireCase wireCase) throws IOException {
        JsonNode golden = GatewayJson.MAPPER.readTree(readOrWriteMissing(wireCase));
        for (SchemaCheck check : wireCase.schemas()) {
            assertThat(JsonSchemas.validate(check.schemaPath(), GatewayJson.MAPPER.writeValueAsString(golden.at(check.pointer()))))
                    .as("%s at '%s'", check.schemaPath(), check.pointer())
                    .isEmpty();
        }
    }

    @Test
    void unknownFieldsFromALaterWriterAreIgnored() throws IOException {
        String golden = Files.readString(GOLDEN_DIR.resolve(UNKNOWN_FIELDS_FILE));
        JsonNode tree = GatewayJson.MAPPER.readTree(golden);
        // the file really carries fields the v1 types do not know, at every level
        assertThat(tree.has("traceParent")).isTrue();
        assertThat(tree.path("actor").has("tenant")).isTrue();
        assertThat(tree.path("event").has("riskScore")).isTrue();

        // fields added to the sample after this file was written (limitReached, undelivered) are absent, as for every golden file
        Object expected = expectedFromGolden(WireSamples.eventEnvelope(WireSamples.events().get(ActionEvaluated.class)), golden);
        assertThat(GatewayJson.MAPPER.readValue(golden, EventEnvelope.class)).isEqualTo(expected);
        assertThat(Topics.EVENTS.valueSerde().deserializer().deserialize(Topics.EVENTS.name(),
                golden.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
        // the schemas are open too: a v1 validator accepts what a later v1 writer adds
        assertThat(JsonSchemas.validate(WireCases.EVENT_ENVELOPE_SCHEMA, golden)).isEmpty();
    }

    @Test
    void everyGoldenFileBelongsToACase() throws IOException {
        List<String> known = new ArrayList<>(WireCases.all().stream().map(WireCase::goldenFile).toList());
        known.add(UNKNOWN_FIELDS_FILE);
        try (Stream<Path> files = Files.list(GOLDEN_DIR)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("golden files are never deleted: a case that disappeared is a breaking change")
                    .containsExactlyInAnyOrderElementsOf(known);
        }
    }

    /** The sample with every field the golden file lacks left out, i.e. what an older writer wrote. */
    private static Object expectedFromGolden(Object sample, String golden) {
        JsonNode restricted = restrict(GatewayJson.MAPPER.valueToTree(sample), GatewayJson.MAPPER.readTree(golden));
        return GatewayJson.MAPPER.treeToValue(restricted, sample.getClass());
    }

    private static JsonNode restrict(JsonNode sample, JsonNode golden) {
        if (!(sample instanceof ObjectNode object) || !golden.isObject()) {
            return sample;
        }
        ObjectNode restricted = GatewayJson.MAPPER.createObjectNode();
        object.propertyStream()
                .filter(field -> golden.has(field.getKey()))
                .forEach(field -> restricted.set(field.getKey(), restrict(field.getValue(), golden.get(field.getKey()))));
        return restricted;
    }

    /** The JSON pointers of every value in {@code golden} that {@code reread} lacks or holds differently. */
    private static List<String> lostFields(JsonNode golden, JsonNode reread, String pointer) {
        List<String> lost = new ArrayList<>();
        if (golden.isObject() && reread.isObject()) {
            golden.propertyStream().forEach(field -> lost.addAll(
                    lostFields(field.getValue(), reread.path(field.getKey()), pointer + "/" + field.getKey())));
        } else if (!sameValue(golden, reread)) {
            lost.add(pointer);
        }
        return lost;
    }

    /** Equal JSON values; numbers by value, since a long written as 17 reads back as an int node. */
    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private static String readOrWriteMissing(WireCase wireCase) throws IOException {
        Path file = GOLDEN_DIR.resolve(wireCase.goldenFile());
        if (Files.exists(file)) {
            return Files.readString(file);
        }
        String pretty = GatewayJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(wireCase.sample()) + "\n";
        if (Boolean.getBoolean("golden.writeMissing")) {
            Files.createDirectories(GOLDEN_DIR);
            Files.writeString(file, pretty);
            return pretty;
        }
        return fail("no golden file " + file + " for the new case " + wireCase.name()
                + "; run the build with -Dgolden.writeMissing=true to write it, review it and commit it");
    }
}
