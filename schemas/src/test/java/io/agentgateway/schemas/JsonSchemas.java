package io.agentgateway.schemas;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The checked-in JSON Schemas (src/main/resources/json-schema/v1), loaded from the classpath the way a
 * consumer of the jar would see them. Their {@code $id}s live under {@link #BASE_ID}, which is an
 * identifier, not a server: the factory maps it onto the classpath so relative {@code $ref}s resolve.
 */
final class JsonSchemas {
    static final String BASE_ID = "https://agent-action-gateway.example/schemas/v1/";
    static final String CLASSPATH_DIR = "json-schema/v1/";
    static final Path SOURCE_DIR = Path.of("src/main/resources", CLASSPATH_DIR);
    static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.schemaMappers(mappers -> mappers.mapPrefix(BASE_ID, "classpath:" + CLASSPATH_DIR)));
    // formats (uuid, date-time, duration) are only annotations in 2020-12 by default; the contract means them
    private static final SchemaValidatorsConfig CONFIG =
            SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();

    private JsonSchemas() {}

    /** @param schemaPath relative to json-schema/v1, e.g. {@code event/action_evaluated.schema.json} */
    static JsonSchema load(String schemaPath) {
        JsonSchema schema = FACTORY.getSchema(SchemaLocation.of(BASE_ID + schemaPath), CONFIG);
        schema.initializeValidators(); // resolves every $ref now, so a broken reference fails here
        return schema;
    }

    static Set<ValidationMessage> validate(String schemaPath, String json) {
        return load(schemaPath).validate(json, InputFormat.JSON);
    }

    static Set<ValidationMessage> validateAgainstMetaSchema(String schemaText) {
        return FACTORY.getSchema(SchemaLocation.of(META_SCHEMA), CONFIG).validate(schemaText, InputFormat.JSON);
    }

    /** Every schema file, as paths relative to json-schema/v1 with '/' separators. */
    static List<String> allPaths() {
        try (Stream<Path> files = Files.walk(SOURCE_DIR)) {
            return files.filter(f -> f.toString().endsWith(".schema.json"))
                    .map(f -> SOURCE_DIR.relativize(f).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String schemaPath) {
        try (InputStream in = JsonSchemas.class.getClassLoader().getResourceAsStream(CLASSPATH_DIR + schemaPath)) {
            if (in == null) {
                throw new IllegalArgumentException("no schema on the classpath at " + CLASSPATH_DIR + schemaPath);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode tree(String schemaPath) {
        return GatewayJson.MAPPER.readTree(text(schemaPath));
    }
}
