package io.agentgateway.launcher;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.regex.Pattern;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One Prometheus registry for every module context of the embedded default, so that the one management
 * port (the ingress's) shows the metrics of all of them: each context gets the registry, and the
 * Prometheus client registry it writes to, as ready-made singletons, which Boot's metrics
 * auto-configuration then uses instead of making its own. A singleton given this way is not
 * post-processed by Boot (which would add each context's filters to a registry already in use), so its
 * binders are bound here: the JVM and process ones once for the whole process, each context's own
 * (connection pools, for instance) once it has started. Boot's task-executor meters are left out: every
 * context has an {@code applicationTaskExecutor}, and one registry can hold only one meter of a name (the
 * same goes for the start-up times, which all carry the launcher's class name).
 */
final class SharedMetrics implements AutoCloseable {
    private static final Pattern PROCESS_WIDE = Pattern.compile("io\\.micrometer\\.core\\.instrument\\.binder\\.(jvm|system)\\.");
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    SharedMetrics() {
        registry.config().meterFilter(MeterFilter.denyNameStartsWith("executor"))
                .meterFilter(MeterFilter.denyNameStartsWith("application.")); // every context's start time, under one class name
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** Gives a module context the shared registry (before it is refreshed). */
    ApplicationContextInitializer<ConfigurableApplicationContext> initializer() {
        return context -> {
            context.getBeanFactory().registerSingleton("prometheusMeterRegistry", registry);
            context.getBeanFactory().registerSingleton("prometheusRegistry", registry.getPrometheusRegistry());
        };
    }

    /** Binds a started module context's own meter binders (not the JVM and process ones: bound once, above). */
    void bindModule(ConfigurableApplicationContext context) {
        context.getBeanProvider(MeterBinder.class).orderedStream()
                .filter(binder -> !PROCESS_WIDE.matcher(binder.getClass().getName()).lookingAt())
                .forEach(binder -> binder.bindTo(registry));
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
