package io.agentgateway.architecturetests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No module holds more than a quarter of the main code: a module that grows past it does several jobs and is split by
 * what it does (as the ingress was, into its products).
 */
class ModuleSizeTest {
    static final double LARGEST_SHARE = 0.25;

    @Test
    void noModuleHoldsMoreThanAQuarterOfTheMainLines() {
        Path reactor = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
        Map<String, Long> lines = new TreeMap<>();
        try (Stream<Path> modules = Files.list(reactor)) {
            modules.filter(module -> Files.isDirectory(module.resolve("src/main/java")))
                    .forEach(module -> lines.put(module.getFileName().toString(), javaLines(module.resolve("src/main/java"))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long total = lines.values().stream().mapToLong(Long::longValue).sum();
        assertThat(total).isPositive();
        assertThat(lines).allSatisfy((module, count) -> assertThat((double) count / total)
                .as("%s holds %d of %d main lines", module, count, total)
                .isLessThanOrEqualTo(LARGEST_SHARE));
    }

    private static long javaLines(Path sources) {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java")).mapToLong(file -> {
                try (Stream<String> fileLines = Files.lines(file)) {
                    return fileLines.count();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
