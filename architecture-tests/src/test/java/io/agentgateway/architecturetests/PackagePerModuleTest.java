package io.agentgateway.architecturetests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A class's package says its module: every class of module {@code mcp-gate}, main or test, lives in
 * {@code io.agentgateway.mcpgate} or below (ModuleClasses#basePackage), so a stack trace or an import names where the
 * class is. And no main package holds more than {@link #MOST_FILES_PER_PACKAGE} files: past that it holds several
 * concerns and is split into sub-packages by concern.
 */
class PackagePerModuleTest {
    static final int MOST_FILES_PER_PACKAGE = 30;

    private static final Path REACTOR = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();

    @Test
    void everyClassLivesInItsModulesBasePackage() {
        List<String> misplaced = new ArrayList<>();
        for (String module : modulesWithArchitectureTests()) {
            String base = ModuleClasses.basePackage(module).replace('.', '/');
            for (String tree : List.of("src/main/java", "src/test/java")) {
                Path root = REACTOR.resolve(module).resolve(tree);
                javaFiles(root).map(file -> root.relativize(file).toString().replace('\\', '/'))
                        .filter(file -> !file.startsWith(base + "/"))
                        .forEach(file -> misplaced.add(module + "/" + tree + "/" + file));
            }
        }
        assertThat(misplaced).as("classes outside their module's base package").isEmpty();
    }

    @Test
    void noMainPackageHoldsMoreThanThirtyFiles() {
        Map<String, Long> crowded = new TreeMap<>();
        for (String module : modulesWithArchitectureTests()) {
            Path root = REACTOR.resolve(module).resolve("src/main/java");
            Map<Path, Long> perPackage = javaFiles(root).collect(Collectors.groupingBy(Path::getParent, Collectors.counting()));
            perPackage.forEach((dir, count) -> {
                if (count > MOST_FILES_PER_PACKAGE) {
                    crowded.put(module + ": " + root.relativize(dir).toString().replace('/', '.'), count);
                }
            });
        }
        assertThat(crowded).as("main packages with more than %d files", MOST_FILES_PER_PACKAGE).isEmpty();
    }

    /** Every module of the reactor that has Java code, this one included. */
    private static List<String> modulesWithArchitectureTests() {
        List<String> modules = new ArrayList<>(ModuleClasses.MODULES);
        modules.add("architecture-tests");
        return modules;
    }

    private static Stream<Path> javaFiles(Path root) {
        if (!Files.isDirectory(root)) {
            return Stream.empty();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
