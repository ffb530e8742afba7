package io.agentgateway.benchmark.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offered rates of the open-loop series and how long each is held. A phase lasts long enough for
 * {@code minSamples} calls, but at least {@code minSeconds} and at most {@code maxSeconds}: at 1/s that is
 * the cap (90 calls by default, so its p99 is one of the slowest few, as it is for a single agent), from
 * about 100/s up the minimum. {@code overrides} fixes the length of single rates ("1:120,10:60").
 */
public record OpenLoopPlan(List<Phase> phases) {

    /** One offered rate, held for {@code length}. */
    public record Phase(int rate, Duration length) {
        public long calls() {
            return length.toNanos() / (1_000_000_000L / rate);
        }
    }

    public OpenLoopPlan {
        phases = List.copyOf(phases);
    }

    public static OpenLoopPlan fromSystemProperties() {
        return of(System.getProperty("bench.rates", "1,10,100,500,1000,2000"), Integer.getInteger("bench.minSamples", 300),
                Integer.getInteger("bench.seconds", 15), Integer.getInteger("bench.maxSeconds", 90),
                System.getProperty("bench.phaseSeconds", ""));
    }

    static OpenLoopPlan of(String rates, int minSamples, int minSeconds, int maxSeconds, String overrides) {
        if (minSeconds < 1 || maxSeconds < minSeconds || minSamples < 1) {
            throw new IllegalArgumentException("need 1 <= bench.seconds (" + minSeconds + ") <= bench.maxSeconds (" + maxSeconds
                    + ") and bench.minSamples >= 1 (" + minSamples + ")");
        }
        Map<Integer, Integer> fixed = new LinkedHashMap<>();
        for (String pair : split(overrides)) {
            String[] rateAndSeconds = pair.split(":");
            if (rateAndSeconds.length != 2) {
                throw new IllegalArgumentException("bench.phaseSeconds takes rate:seconds pairs (\"1:120,10:60\"), not '" + pair + "'");
            }
            fixed.put(positive("bench.phaseSeconds", rateAndSeconds[0]), positive("bench.phaseSeconds", rateAndSeconds[1]));
        }
        List<Phase> phases = new ArrayList<>();
        for (String rate : split(rates)) {
            int perSecond = positive("bench.rates", rate);
            if (perSecond > 1_000_000) {
                throw new IllegalArgumentException("bench.rates: " + perSecond + "/s is more than one call a microsecond");
            }
            long forSamples = (minSamples + perSecond - 1L) / perSecond;
            long seconds = fixed.containsKey(perSecond) ? fixed.get(perSecond) : Math.min(maxSeconds, Math.max(minSeconds, forSamples));
            phases.add(new Phase(perSecond, Duration.ofSeconds(seconds)));
        }
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("bench.rates names no rate");
        }
        return new OpenLoopPlan(phases);
    }

    /** The time the phases themselves take, once per series. */
    public Duration perSeries() {
        return phases.stream().map(Phase::length).reduce(Duration.ZERO, Duration::plus);
    }

    private static List<String> split(String list) {
        List<String> parts = new ArrayList<>();
        for (String part : list.split(",")) {
            if (!part.isBlank()) {
                parts.add(part.trim());
            }
        }
        return parts;
    }

    private static int positive(String property, String value) {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException notANumber) {
            // below
        }
        throw new IllegalArgumentException(property + ": '" + value + "' is not a whole number of at least 1");
    }
}
