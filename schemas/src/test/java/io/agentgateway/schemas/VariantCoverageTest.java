package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.event.DomainEvent;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Guards against a variant being forgotten: a new permitted subclass of {@link Command} or
 * {@link DomainEvent} fails here until it has a sample, a registered wire name and a JSON Schema.
 */
class VariantCoverageTest {

    @Test
    void everyCommandVariantHasASampleAndAWireName() {
        Set<Class<?>> permitted = Set.of(Command.class.getPermittedSubclasses());
        assertThat(Set.<Class<?>>copyOf(WireSamples.commands().keySet()))
                .as("WireSamples.commands() must hold one sample per permitted subclass of Command")
                .containsExactlyInAnyOrderElementsOf(permitted);
        assertThat(WireCases.typeNames(Command.class).keySet())
                .as("every Command variant must be registered in @JsonSubTypes")
                .containsExactlyInAnyOrderElementsOf(permitted);
    }

    @Test
    void everyEventVariantHasASampleAndAWireName() {
        Set<Class<?>> permitted = Set.of(DomainEvent.class.getPermittedSubclasses());
        assertThat(Set.<Class<?>>copyOf(WireSamples.events().keySet()))
                .as("WireSamples.events() must hold one sample per permitted subclass of DomainEvent")
                .containsExactlyInAnyOrderElementsOf(permitted);
        assertThat(WireCases.typeNames(DomainEvent.class).keySet())
                .as("every DomainEvent variant must be registered in @JsonSubTypes")
                .containsExactlyInAnyOrderElementsOf(permitted);
    }

    @Test
    void wireNamesAreUniqueLowerSnakeCase() {
        List<String> names = new ArrayList<>(WireCases.typeNames(Command.class).values());
        names.addAll(WireCases.typeNames(DomainEvent.class).values());
        assertThat(names).doesNotHaveDuplicates().allMatch(n -> n.matches("[a-z]+(_[a-z]+)*"), "lower snake case");
    }

    @Test
    void theVariantSchemaFilesAreExactlyTheVariants() {
        List<String> expected = new ArrayList<>();
        WireCases.typeNames(Command.class).values().forEach(n -> expected.add(WireCases.commandSchema(n)));
        WireCases.typeNames(DomainEvent.class).values().forEach(n -> expected.add(WireCases.eventSchema(n)));
        List<String> variantFiles = JsonSchemas.allPaths().stream()
                .filter(p -> p.startsWith("command/") || p.startsWith("event/"))
                .toList();
        assertThat(variantFiles).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void theEnvelopeSchemasDispatchEveryVariantToItsSchema() {
        assertDispatches(WireCases.COMMAND_ENVELOPE_SCHEMA, "command", WireCases.typeNames(Command.class).values(), "command");
        assertDispatches(WireCases.EVENT_ENVELOPE_SCHEMA, "event", WireCases.typeNames(DomainEvent.class).values(), "event");
    }

    /** The envelope lists every wire name in its type enum and applies ../folder/name.schema.json when type is name. */
    private static void assertDispatches(String envelopeSchema, String property, Collection<String> names, String folder) {
        JsonNode variant = JsonSchemas.tree(envelopeSchema).path("properties").path(property);
        assertThat(variant.at("/properties/type/enum").valueStream().map(JsonNode::asString).toList())
                .containsExactlyInAnyOrderElementsOf(names);
        Map<String, String> schemaOfType = variant.path("allOf").valueStream().collect(Collectors.toMap(
                branch -> branch.at("/if/properties/type/const").asString(),
                branch -> branch.at("/then/$ref").asString()));
        assertThat(schemaOfType).containsExactlyInAnyOrderEntriesOf(names.stream().collect(Collectors.toMap(
                name -> name, name -> "../" + folder + "/" + name + ".schema.json")));
    }

    @Test
    void everyTopicCarriesAtLeastOneSample() {
        Set<Object> exercised = WireCases.all().stream()
                .flatMap(c -> c.topics().stream())
                .collect(Collectors.toSet());
        assertThat(exercised).containsExactlyInAnyOrderElementsOf(Topics.ALL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void samplesSetEveryField(WireCase wireCase) {
        assertThat(unsetFields(wireCase.sample(), wireCase.type().getSimpleName()))
                .as("a sample must set every field (non-null, non-empty) so every field is exercised on the wire")
                .isEmpty();
    }

    /** The dotted paths of every null or empty record component, recursively. */
    private static List<String> unsetFields(Object value, String path) {
        List<String> unset = new ArrayList<>();
        if (value == null
                || value instanceof Collection<?> c && c.isEmpty()
                || value instanceof Map<?, ?> m && m.isEmpty()
                || value instanceof JsonNode n && n.isEmpty()) {
            unset.add(path);
        } else if (value.getClass().isRecord()) {
            for (RecordComponent component : value.getClass().getRecordComponents()) {
                unset.addAll(unsetFields(read(component, value), path + "." + component.getName()));
            }
        }
        return unset;
    }

    static Object read(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void reachableRecordsIncludeEveryVariant() {
        // sanity check of WireTypes itself, which the schema and enum tests rely on
        assertThat(WireTypes.records())
                .containsAll(Arrays.asList(Command.class.getPermittedSubclasses()))
                .containsAll(Arrays.asList(DomainEvent.class.getPermittedSubclasses()));
    }
}
