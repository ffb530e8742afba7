package io.agentgateway.architecturetests;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.LocationProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The main classes of every module of the reactor, read from {@code <module>/target/classes} (not from the
 * jars: the benchmark's and the fault suite's are repackaged). Test classes are not analysed. A module that
 * has not been compiled fails the test rather than pass it unread.
 */
public final class ModuleClasses implements LocationProvider {
    static final List<String> MODULES = List.of("schemas", "embedded-infra", "gateway-config", "classification",
            "egress", "gateway-tracing", "evidence", "decision-core", "decision-stream", "backtest", "projector",
            "notifier", "ingress-test-support", "gateway-client", "http-edge", "action-gate", "agent-api", "mcp-gate",
            "tool-proxy", "webhooks", "admin-api", "approval-executor", "ingress-api", "console", "launcher", "benchmark",
            "fault-suite");

    /** A module's base package: {@code io.agentgateway.} and its name without hyphens ({@code mcp-gate}: {@code mcpgate}). */
    static String basePackage(String module) {
        return "io.agentgateway." + module.replace("-", "");
    }

    /** The modules' base packages as ArchUnit package patterns ({@code io.agentgateway.mcpgate..}). */
    static String[] packagesOf(String... modules) {
        return java.util.Arrays.stream(modules).map(module -> basePackage(module) + "..").toArray(String[]::new);
    }

    @Override
    public Set<Location> get(Class<?> testClass) {
        Path reactor = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
        Set<Location> locations = new LinkedHashSet<>();
        for (String module : MODULES) {
            Path classes = reactor.resolve(module).resolve("target").resolve("classes");
            if (!Files.isDirectory(classes.resolve("io").resolve("agentgateway"))) {
                throw new IllegalStateException(classes + " holds no compiled classes: build the reactor"
                        + " (e.g. ./mvnw -pl architecture-tests -am test) before the architecture test");
            }
            locations.add(Location.of(classes));
        }
        return locations;
    }
}
