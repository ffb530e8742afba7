package io.agentgateway.launcher;

import io.agentgateway.console.SignInLinks;
import io.agentgateway.decisionstream.DecisionStreamApplication;
import io.agentgateway.decisionstream.config.DecisionStreamLifecycle;
import io.agentgateway.embeddedinfra.Directories;
import io.agentgateway.embeddedinfra.EmbeddedKafkaBroker;
import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.FreePorts;
import io.agentgateway.ingressapi.IngressApplication;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.notifier.NotifierApplication;
import io.agentgateway.projector.ProjectorApplication;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.gatewaytracing.GatewayTracing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole gateway in one process: a Kafka broker and a PostgreSQL (embedded unless external ones
 * are configured) and each module as its own Spring application context, exactly as each would run
 * in its own container. Contexts start in dependency order: the projector first (it migrates the
 * read models), the decision stream before the ingress (the ingress serves only once decisions can
 * be made).
 *
 * <p>Unless {@code gateway.local-reply.enabled} ({@code GATEWAY_LOCALREPLY_ENABLED}) is {@code false}, the
 * decision stream and the ingress share a {@link LocalReplyChannel}: the stream hands the ingress its replies
 * in process once what each decision wrote is acknowledged by the broker, instead of a reply record the
 * ingress fetches back (replicas started with {@link #startIngressReplica} keep the replies topic).
 */
public final class EmbeddedGateway implements AutoCloseable {
    /** Partitions of the keyed topics this creates, unless configured: see {@link #commandPartitions()}. */
    static final int EMBEDDED_COMMAND_PARTITIONS = 2;
    /** The embedded default's operator unless GATEWAY_AUTH_OPERATORS names others. */
    public static final String DEFAULT_OPERATOR = "gateway-operator";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedGateway.class);
    private static final String REPLICA = "ingress-api-replica-";
    /** {@code service.name} of the embedded default's spans unless OTEL_SERVICE_NAME is set. */
    static final String SERVICE_NAME = "agent-action-gateway";
    /** What the embedded default may connect to beyond public addresses, unless GATEWAY_EGRESS_ALLOW says otherwise. */
    static final String EMBEDDED_EGRESS_ALLOW = "127.0.0.0/8,::1";

    private final LauncherSettings settings;
    private final LocalSecrets secrets;
    private final SharedMetrics metrics = new SharedMetrics();
    private EmbeddedKafkaBroker kafka;
    private EmbeddedPostgresServer postgres;
    private String bootstrapServers;
    private String jdbcUrl;
    private ConfigurableApplicationContext projector;
    private ConfigurableApplicationContext notifier;
    private ConfigurableApplicationContext decisionStream;
    private ConfigurableApplicationContext ingress;
    private Map<String, String> extraProperties = Map.of();
    private final List<ConfigurableApplicationContext> replicas = new ArrayList<>();
    /** Null when replies go through Kafka only ({@code gateway.local-reply.enabled=false}). */
    private LocalReplyChannel localReplies;
    /** One SDK for every module of the process (each module alone would make its own). */
    private GatewayTracing tracing = GatewayTracing.disabled();
    /** The SDK this gateway made from the configuration (closed with it); null when given one or off. */
    private GatewayTracing ownedTracing;

    private EmbeddedGateway(LauncherSettings settings) {
        this.settings = settings;
        PrivateDataDirectory.prepare(settings.dataDir());
        this.secrets = LocalSecrets.loadOrCreate(settings.dataDir());
    }

    public static EmbeddedGateway start(LauncherSettings settings) {
        return start(settings, Map.of());
    }

    /** @param extraProperties Spring properties given to every module (tests: timeouts, SMTP port) */
    public static EmbeddedGateway start(LauncherSettings settings, Map<String, String> extraProperties) {
        return start(settings, extraProperties, null);
    }

    /**
     * @param tracing where every module's spans go (tests: an SDK that keeps them in memory), which the caller closes;
     *                null: as {@code gateway.tracing.*} ({@code GATEWAY_TRACING_ENABLED}) and the {@code OTEL_*}
     *                variables say, off unless enabled
     */
    public static EmbeddedGateway start(LauncherSettings settings, Map<String, String> extraProperties, GatewayTracing tracing) {
        EmbeddedGateway gateway = new EmbeddedGateway(settings);
        gateway.extraProperties = Map.copyOf(extraProperties);
        gateway.tracing = tracing != null ? tracing : gateway.configuredTracing();
        if (!"false".equalsIgnoreCase(gateway.setting("gateway.local-reply.enabled", "GATEWAY_LOCALREPLY_ENABLED"))) {
            gateway.localReplies = new LocalReplyChannel();
        }
        try {
            gateway.startInfrastructure();
            gateway.startModules();
            return gateway;
        } catch (RuntimeException e) {
            gateway.close();
            throw e;
        }
    }

    private void startInfrastructure() {
        // PostgreSQL starts beside the broker: neither needs the other, and after a crash both take seconds (the
        // broker waits out its dead incarnation's session, an orphaned PostgreSQL is stopped first)
        CompletableFuture<EmbeddedPostgresServer> startingPostgres = null;
        int postgresPort = settings.postgresPort();
        if (settings.externalPostgres().isPresent()) {
            jdbcUrl = settings.externalPostgres().get();
        } else {
            if (postgresPort == 0) {
                postgresPort = FreePorts.pickOtherThan(settings.kafkaPort());
            }
            int port = postgresPort;
            startingPostgres = CompletableFuture.supplyAsync(
                    () -> EmbeddedPostgresServer.start(dataDir("postgres"), port),
                    work -> new Thread(work, "embedded-postgres-start").start());
        }
        RuntimeException failed = null;
        try {
            if (settings.externalKafka().isPresent()) {
                bootstrapServers = settings.externalKafka().get();
            } else {
                kafka = EmbeddedKafkaBroker.start(dataDir("kafka"), settings.kafkaPort(), postgresPort);
                bootstrapServers = kafka.bootstrapServers();
            }
        } catch (RuntimeException e) {
            failed = e;
        }
        if (startingPostgres != null) {
            // joined even when the broker failed, so that close() stops a PostgreSQL that did start
            try {
                postgres = startingPostgres.join();
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (failed == null) {
                    failed = cause;
                } else {
                    failed.addSuppressed(cause);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
        if (postgres != null) {
            jdbcUrl = postgres.ensureDatabase(LauncherSettings.DATABASE);
        }
        // replication as configured (0, the default: derived from the cluster), as the separate services create it:
        // with an external Kafka of several brokers the topics are created here, before any module could
        TopicProvisioner.ensureTopics(bootstrapServers, new TopicProvisioner.Layout(commandPartitions(),
                intProperty("gateway.topics.reply-partitions", "GATEWAY_TOPICS_REPLYPARTITIONS", 4, 1),
                (short) intProperty("gateway.topics.replication-factor", "GATEWAY_TOPICS_REPLICATIONFACTOR", 0, 0),
                intProperty("gateway.topics.min-insync-replicas", "GATEWAY_TOPICS_MININSYNCREPLICAS", 0, 0)));
    }

    /** Null (a self-cleaning temporary directory) when the data is throwaway. */
    private Path dataDir(String part) {
        return settings.temporaryData() ? null : settings.dataDir().resolve(part);
    }

    private void startModules() {
        // static members: a restart after a crash takes the partitions back at once (one instance of each here)
        projector = run("projector", withTracing(withSharedMetrics(ProjectorApplication.application()))::run,
                Map.of("gateway.projector.instance-id", "embedded-projector"));
        startDecisionStream();
        Map<String, String> web = new LinkedHashMap<>();
        web.put("server.port", Integer.toString(settings.httpPort()));
        web.put("server.address", LauncherSettings.serverAddress());
        if (settings.httpPort() == 0 && !configured("management.server.port", "MANAGEMENT_SERVER_PORT")) {
            // the API on any free port (tests, benchmark): the management server too
            web.put("management.server.port", "0");
        }
        web.putAll(inFlightJournal());
        // the ingress with its console (served at / on the same port)
        ingress = run("ingress-api", withTracing(withLocalReplies(withSharedMetrics(IngressApplication.application())))::run, web);
        try {
            if (!ingress.getBean(CommandGateway.class).awaitReady(Duration.ofSeconds(60))) {
                throw new IllegalStateException("the ingress could not reach its reply partition within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the ingress was starting", e);
        }
        // after the ingress: its port (possibly picked at random) is the base of the review URLs in
        // approval alerts; notifications wait in their topic meanwhile
        notifier = run("notifier", withTracing(withSharedMetrics(NotifierApplication.application()))::run, notifierDefaults());
        log.info("Gateway ready at {}", baseUrl());
    }

    /** Starts the decision stream (again); returns once its Kafka Streams instance is RUNNING. */
    public void startDecisionStream() {
        startDecisionStream(Map.of());
    }

    /** @param overrides properties for this start only, e.g. the processing guarantee */
    public synchronized void startDecisionStream(Map<String, String> overrides) {
        if (decisionStream == null) {
            Map<String, String> props = new LinkedHashMap<>(overrides);
            props.putIfAbsent("gateway.decision.state-dir", settings.dataDir().toAbsolutePath().resolve("streams").toString());
            // one instance: no other one to keep a standby copy on (its group.instance.id is kept in the state
            // directory, so a restart after a crash rejoins as the same static member, without a rebalance)
            props.putIfAbsent("gateway.decision.num-standby-replicas", "0");
            decisionStream = run("decision-stream", DecisionStreamApplication.builder().initializers(metrics.initializer())
                    .initializers(localRepliesInitializer()).initializers(tracingInitializer())::run, props);
            decisionStream.getBean(DecisionStreamLifecycle.class).awaitRunning(Duration.ofSeconds(60));
        }
    }

    /** Stops the decision stream as a crash or a deploy would; commands wait in the log meanwhile. */
    public synchronized void stopDecisionStream() {
        if (decisionStream != null) {
            decisionStream.close();
            decisionStream = null;
        }
    }

    /**
     * Without SMTP settings the embedded default still starts: mail goes to port 25 on loopback, and
     * undeliverable alerts end on the dead-letter topic after their retries (set SPRING_MAIL_HOST).
     */
    private Map<String, String> notifierDefaults() {
        Map<String, String> notifierProps = new LinkedHashMap<>();
        notifierProps.put("gateway.notifier.instance-id", "embedded-notifier");
        if (!configured("spring.mail.host", "SPRING_MAIL_HOST")) {
            notifierProps.put("spring.mail.host", "127.0.0.1");
        }
        // approval alerts link to the admin API: where this gateway answers, unless a public address is set
        if (!configured("gateway.notifier.public-base-url", "GATEWAY_NOTIFIER_PUBLICBASEURL")
                && !configured("gateway.public-base-url", "GATEWAY_PUBLICBASEURL")) {
            notifierProps.put("gateway.notifier.public-base-url", baseUrl());
        }
        return notifierProps;
    }

    private SpringApplication withSharedMetrics(SpringApplication application) {
        application.addInitializers(metrics.initializer());
        return application;
    }

    private SpringApplication withTracing(SpringApplication application) {
        application.addInitializers(tracingInitializer());
        return application;
    }

    /** Puts this gateway's one {@link GatewayTracing} into a module's context, which then makes none of its own. */
    private ApplicationContextInitializer<ConfigurableApplicationContext> tracingInitializer() {
        return context -> context.getBeanFactory().registerSingleton("gatewayTracing", tracing);
    }

    /**
     * {@code gateway.tracing.enabled} ({@code GATEWAY_TRACING_ENABLED}, off by default): an SDK from the {@code OTEL_*}
     * variables, {@code service.name} {@value #SERVICE_NAME} unless {@code OTEL_SERVICE_NAME} says otherwise.
     */
    private GatewayTracing configuredTracing() {
        if (!"true".equalsIgnoreCase(setting("gateway.tracing.enabled", "GATEWAY_TRACING_ENABLED"))) {
            return GatewayTracing.disabled();
        }
        boolean upstream = "true".equalsIgnoreCase(setting("gateway.tracing.propagate-upstream", "GATEWAY_TRACING_PROPAGATEUPSTREAM"));
        GatewayTracing configured = GatewayTracing.fromEnvironment(SERVICE_NAME, upstream);
        ownedTracing = configured;
        return configured;
    }

    /** This gateway's tracing (off unless configured). */
    public GatewayTracing tracing() {
        return tracing;
    }

    private SpringApplication withLocalReplies(SpringApplication application) {
        application.addInitializers(localRepliesInitializer());
        return application;
    }

    /** Puts this gateway's reply channel (if any) into a module's context, where its configuration picks it up. */
    private ApplicationContextInitializer<ConfigurableApplicationContext> localRepliesInitializer() {
        return context -> {
            if (localReplies != null) {
                context.getBeanFactory().registerSingleton("localReplyChannel", localReplies);
            }
        };
    }

    /** The channel between this gateway's decision stream and its ingress; null when replies go through Kafka only. */
    public LocalReplyChannel localReplies() {
        return localReplies;
    }

    private boolean configured(String property, String environmentVariable) {
        return setting(property, environmentVariable) != null;
    }

    /** From the given properties, else a system property, else the environment (as the modules read them); null when unset. */
    private String setting(String property, String environmentVariable) {
        return extraProperties.getOrDefault(property, System.getProperty(property, System.getenv(environmentVariable)));
    }

    private ConfigurableApplicationContext run(String module, Function<String[], ConfigurableApplicationContext> starter,
            Map<String, String> moduleProperties) {
        String[] args = arguments(moduleProperties).toArray(String[]::new);
        log.info("Starting {}", module);
        ConfigurableApplicationContext context = starter.apply(args);
        if (!module.startsWith(REPLICA)) {
            metrics.bindModule(context);
        }
        return context;
    }

    /** A module's settings on this gateway's broker and database, as command-line arguments. */
    private List<String> arguments(Map<String, String> moduleProperties) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("spring.main.banner-mode", "off");
        props.put("spring.kafka.bootstrap-servers", bootstrapServers);
        props.put("spring.datasource.url", jdbcUrl);
        props.put("spring.datasource.username", settings.postgresUser());
        props.put("spring.datasource.password", settings.postgresPassword());
        props.put("gateway.auth.jwt.hs256-secret", secrets.jwtSecret());
        props.put("gateway.secrets.key", secrets.secretsKey());
        props.put("gateway.oauth.state-key", secrets.oauthStateKey());
        // the decision stream signs the audit log's checkpoints with it; the ingress trusts its public half
        props.put("gateway.evidence.signing-key", secrets.evidenceSigningKey());
        // who may create and list workspaces (the demo seeding and the bootstrap command sign as the first)
        props.put("gateway.auth.operators", String.join(",", operators()));
        // the layout the topics were created with, should a module create one that is missing
        props.put("gateway.topics.command-partitions", Integer.toString(commandPartitions()));
        if (!configured("gateway.egress.allow", "GATEWAY_EGRESS_ALLOW")) {
            // the embedded default runs on one machine with its demo upstreams: loopback may be connected to
            // (the gateway's own listeners never are); the services alone default to public addresses only
            props.put("gateway.egress.allow", EMBEDDED_EGRESS_ALLOW);
        }
        props.putAll(extraProperties);
        props.putAll(moduleProperties);
        // as command-line arguments: they outrank each module's own configuration file
        List<String> args = new ArrayList<>();
        props.forEach((k, v) -> args.add("--" + k + "=" + v));
        return args;
    }

    /**
     * Another ingress instance on this gateway's broker and database, as a second replica would run (tests
     * start one with settings of its own: short timeouts, small limits): on free ports, with its own reply
     * partition (below {@code gateway.topics.reply-partitions}, not 0, which the first ingress holds), no
     * approval executor, metrics of its own. Returns once it can receive replies; closed with the gateway.
     */
    public synchronized ConfigurableApplicationContext startIngressReplica(int replyPartition, Map<String, String> overrides) {
        ConfigurableApplicationContext replica = run(REPLICA + replyPartition, withTracing(IngressApplication.application())::run,
                replicaProperties(replyPartition, overrides));
        try {
            if (!replica.getBean(CommandGateway.class).awaitReady(Duration.ofSeconds(60))) {
                replica.close();
                throw new IllegalStateException("the ingress replica could not reach its reply partition within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            replica.close();
            throw new IllegalStateException("interrupted while the ingress replica was starting", e);
        }
        replicas.add(replica);
        return replica;
    }

    /**
     * The command-line arguments of {@code IngressApplication} (the ingress with its console) for a replica on this
     * gateway's broker and database in a process of its own (tests that kill one): as {@link #startIngressReplica}, plus {@code overrides}.
     */
    public List<String> ingressReplicaArguments(int replyPartition, Map<String, String> overrides) {
        return arguments(replicaProperties(replyPartition, overrides));
    }

    private Map<String, String> replicaProperties(int replyPartition, Map<String, String> overrides) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("server.port", "0");
        props.put("server.address", "127.0.0.1");
        props.put("management.server.port", "0");
        props.put("gateway.ingress.reply-partition", Integer.toString(replyPartition));
        props.put("gateway.executor.enabled", "false");
        props.putAll(inFlightJournal());
        props.putAll(overrides);
        return props;
    }

    /**
     * Each ingress's in-flight journal (a file per reply partition) in the data directory, unless configured: after a
     * kill -9 the next start reports the evaluations it had not answered as reaching nobody.
     */
    private Map<String, String> inFlightJournal() {
        return configured("gateway.ingress.journal-dir", "GATEWAY_INGRESS_JOURNALDIR") ? Map.of()
                : Map.of("gateway.ingress.journal-dir", settings.dataDir().toAbsolutePath().resolve("ingress").toString());
    }

    /** Where an ingress context (this gateway's or a replica) answers HTTP. */
    public static String baseUrlOf(ConfigurableApplicationContext ingressContext) {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) ingressContext).getWebServer().getPort();
    }

    /**
     * Partitions of the commands, events and notifications topics when this creates them: 2 here, where
     * the services' own default is 6. Every partition is a Kafka Streams task and a partition of every
     * listener, and each costs CPU on every poll loop whether it holds records or not; one process has
     * one stream thread, so more partitions than that buy it nothing. The gateway benchmark measured 2
     * against 6 back to back: 4,144 against 3,295 evaluations/s closed loop, 0.45 against 0.58 ms of CPU
     * per evaluation. Topics that exist keep their partitions (a keyed topic's count must not change).
     */
    private int commandPartitions() {
        return intProperty("gateway.topics.command-partitions", "GATEWAY_TOPICS_COMMANDPARTITIONS",
                EMBEDDED_COMMAND_PARTITIONS, 1);
    }

    /**
     * A whole number from {@code minimum} to 32,767 (Kafka's replication factor is a short; no count here needs
     * more); anything else stops the start with a message naming the setting and the range.
     */
    private int intProperty(String key, String environmentVariable, int fallback, int minimum) {
        String value = setting(key, environmentVariable);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= minimum && parsed <= Short.MAX_VALUE) {
                return parsed;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(key + " (" + environmentVariable + ") must be a whole number from "
                + minimum + " to " + Short.MAX_VALUE + ", not '" + value + "'");
    }

    /** {@code gateway.auth.operators} of this gateway: {@code GATEWAY_AUTH_OPERATORS}, else {@value #DEFAULT_OPERATOR}. */
    public List<String> operators() {
        String configured = setting("gateway.auth.operators", "GATEWAY_AUTH_OPERATORS");
        List<String> ids = configured == null ? List.of()
                : Arrays.stream(configured.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        return ids.isEmpty() ? List.of(DEFAULT_OPERATOR) : ids;
    }

    /** A JWT of this gateway's first operator, signed with its HS256 secret (demo seeding, tests, benchmarks). */
    public String operatorJwt() {
        return DevJwts.sign(secrets.jwtSecret(), operators().get(0), null, Duration.ofHours(2));
    }

    /**
     * A one-time console sign-in link for {@code userId} (the embedded default prints one for its demo owner): single
     * use, valid for {@code gateway.console.link-ttl}.
     */
    public String consoleSignInLink(String userId, String email) {
        return baseUrl() + ingress.getBean(SignInLinks.class).issue(userId, email);
    }

    /** Whether the ingress signs people in with an OpenID provider ({@code gateway.auth.oidc.issuer}). */
    public boolean oidcConfigured() {
        return ingress.getBean(SignInLinks.class).providerConfigured();
    }

    public String baseUrl() {
        int port = ((WebServerApplicationContext) ingress).getWebServer().getPort();
        return "http://127.0.0.1:" + port;
    }

    /**
     * Where the management endpoints answer (health, metrics, Prometheus): {@code management.server.port}
     * (MANAGEMENT_SERVER_PORT, 8081 by default) on {@code management.server.address} (loopback by default).
     */
    public String managementUrl() {
        String port = ingress.getEnvironment().getProperty("local.management.port");
        String address = ingress.getEnvironment().getProperty("management.server.address", "127.0.0.1");
        return "http://" + ("0.0.0.0".equals(address) ? "127.0.0.1" : address) + ":" + port;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public String postgresUser() {
        return settings.postgresUser();
    }

    public String postgresPassword() {
        return settings.postgresPassword();
    }

    public LocalSecrets secrets() {
        return secrets;
    }

    public LauncherSettings settings() {
        return settings;
    }

    @Override
    public synchronized void close() {
        // the reverse of the start order: stop taking requests first, the broker last
        replicas.forEach(EmbeddedGateway::closeQuietly);
        replicas.clear();
        closeQuietly(ingress);
        closeQuietly(decisionStream);
        closeQuietly(notifier);
        closeQuietly(projector);
        ingress = decisionStream = notifier = projector = null;
        if (kafka != null) {
            kafka.close();
            kafka = null;
        }
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
        metrics.close();
        if (ownedTracing != null) {
            // after every module: what they ended is exported before the SDK shuts down
            ownedTracing.close();
            ownedTracing = null;
        }
        if (settings.temporaryData()) {
            // Streams state and the generated secrets of a throwaway gateway (tests, benchmark)
            Directories.deleteRecursively(settings.dataDir());
        }
    }

    private static void closeQuietly(ConfigurableApplicationContext context) {
        if (context != null) {
            try {
                context.close();
            } catch (RuntimeException e) {
                log.warn("A module did not stop cleanly: {}", e.toString());
            }
        }
    }
}
