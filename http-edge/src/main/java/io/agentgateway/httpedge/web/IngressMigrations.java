package io.agentgateway.httpedge.web;

import java.util.List;
import java.util.Objects;

/**
 * One module's tables in the ingress's schema {@value IngressTables#SCHEMA}, as the module contributes them to
 * {@link IngressTables} (a bean of this type): its scripts at {@code classpath:db/ingress/<module>} ({@code V1__...},
 * {@code V2__...}, numbered by the module alone) and a history of its own, {@code ingress.<module>_schema_history}.
 *
 * <p>Before each module migrated its own, one shared history ({@code ingress.flyway_schema_history}) held every
 * module's scripts in one sequence. {@code adoptedSharedVersions} names the versions of that sequence which created
 * this module's tables, in the order of its own versions (the first one is its {@code V1}): a deployment that applied
 * them has those tables already, so the module's history starts as a baseline after them rather than create them
 * twice.
 *
 * @param module                the module's name ({@code admin-api}): the scripts' folder and the history's name
 * @param adoptedSharedVersions the shared history's versions this module's {@code V1}, {@code V2}, ... were
 */
public record IngressMigrations(String module, List<String> adoptedSharedVersions) {
    static final String LOCATIONS = "classpath:db/ingress/";

    public IngressMigrations {
        Objects.requireNonNull(module, "module");
        if (!module.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("a module name is lower-case letters, digits and hyphens: " + module);
        }
        adoptedSharedVersions = List.copyOf(adoptedSharedVersions);
    }

    /** A module whose tables were never in the shared history. */
    public static IngressMigrations of(String module) {
        return new IngressMigrations(module, List.of());
    }

    /** The same module, whose {@code V1}, {@code V2}, ... were these versions of the shared history. */
    public IngressMigrations adopting(String... sharedVersions) {
        return new IngressMigrations(module, List.of(sharedVersions));
    }

    /** Where its scripts are. */
    public String location() {
        return LOCATIONS + module;
    }

    /** Its history table in the ingress's schema. */
    public String historyTable() {
        return module.replace('-', '_') + "_schema_history";
    }
}
