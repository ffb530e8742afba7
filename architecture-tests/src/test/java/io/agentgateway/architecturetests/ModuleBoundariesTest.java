package io.agentgateway.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import java.util.Set;

/**
 * What one module may use of another. Libraries ({@code schemas}, {@code gateway-config}, {@code classification},
 * {@code egress}, {@code embedded-infra}) are public as a whole; of a service module, only the packages named
 * here as its API are: everything else is the module's own, and no other module's code may import it.
 *
 * <p>Rules wrapped in {@link FreezingArchRule} hold violations that are known and not fixed yet: they are listed
 * in {@code src/test/resources/archunit-frozen} (committed), a new one fails the build, and a fixed one drops
 * out of the list on the next run (commit that change too). See ARCHITECTURE.md.
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class ModuleBoundariesTest {

    /** The decision stream's internals: its topology. Its API: the root package (applications), config, runtime, local. */
    static final String[] DECISION_STREAM_INTERNALS = {"io.agentgateway.decisionstream.topology.."};
    /** Every package of the decision-stream module (the decision core's packages are not among them). */
    static final String[] DECISION_STREAM_PACKAGES = {"io.agentgateway.decisionstream", "io.agentgateway.decisionstream.config..",
            "io.agentgateway.decisionstream.runtime..", "io.agentgateway.decisionstream.local..", "io.agentgateway.decisionstream.topology.."};

    /**
     * The decision core's public API (module decision-core): the entry point and its settings, the state a driver
     * hands in and keeps (the whole {@code state} package but {@code Wildcards}), the outcome, and what the back-test
     * replays an evaluation with. Everything else is package-private, or public only because the core spans packages
     * ({@code ActionDecider}, {@code OutrightBlocks}, {@code Wildcards}): this rule keeps those inside.
     */
    static final Set<String> DECISION_CORE_API = Set.of("io.agentgateway.decisioncore.core.DecisionCore",
            "io.agentgateway.decisioncore.core.CommandDecision", "io.agentgateway.decisioncore.core.DecisionSettings",
            "io.agentgateway.decisioncore.core.DecisionLimits", "io.agentgateway.decisioncore.evaluation.ActionRequest",
            "io.agentgateway.decisioncore.evaluation.Verdict", "io.agentgateway.decisioncore.evaluation.Explanation");
    /** ... and policy conditions (their limits, compiling and checking one, the facts of a command, their values) and
     * the evidence the core seals. */
    static final String[] DECISION_CORE_API_PACKAGES = {"io.agentgateway.decisioncore.outcome..", "io.agentgateway.decisioncore.state..",
            "io.agentgateway.decisioncore.condition..", "io.agentgateway.decisioncore.evidence.."};
    static final String DECISION_CORE_INTERNAL_STATE = "io.agentgateway.decisioncore.state.Wildcards";

    /**
     * The ingress's API for other modules: the application ({@code ingressapi}), the admin API's rules for the CLI
     * ({@code adminapi.api}), the audit export ({@code adminapi.export}), the Merkle log's reads, live check and evidence
     * export ({@code adminapi.evidence}) and the command gateway ({@code gatewayclient}, its root package).
     */
    static final String[] INGRESS_API_PACKAGES = {"io.agentgateway.ingressapi", "io.agentgateway.adminapi.api",
            "io.agentgateway.adminapi.export", "io.agentgateway.adminapi.evidence", "io.agentgateway.gatewayclient"};
    /** Every module the ingress application assembles, the console aside. */
    static final String[] INGRESS_MODULES = ModuleClasses.packagesOf("ingress-api", "gateway-client", "http-edge",
            "action-gate", "agent-api", "mcp-gate", "tool-proxy", "webhooks", "admin-api", "approval-executor");

    /**
     * What the console (module console, assembled into the ingress's context) may use of the ingress's internals, by
     * class: the admin API's application services, which every state change goes through (each a command through the
     * decision stream, every body checked by the API's own rules) and which answer its reads, with the values they
     * answer ({@code Applied}, the approval, audit and tool views); identity ({@code JwtVerifier}, {@code OidcIssuer}), its
     * tables in the ingress's schema (which it migrates itself), the read model's progress, and the HTTP helpers of {@code web}. Nothing else: no handler, no
     * repository of another product, no command sent by hand.
     */
    static final Set<String> CONSOLE_MAY_USE = Set.of(
            "io.agentgateway.adminapi.approvals.Approvals", "io.agentgateway.adminapi.approvals.ApprovalItem",
            "io.agentgateway.adminapi.audit.AuditLog", "io.agentgateway.adminapi.audit.AuditLogQuery",
            "io.agentgateway.adminapi.audit.AuditEntry", "io.agentgateway.adminapi.audit.AuditPage",
            "io.agentgateway.adminapi.audit.AuditCursor", "io.agentgateway.adminapi.audit.AuditExports",
            "io.agentgateway.adminapi.audit.ChangeHistory", "io.agentgateway.adminapi.killswitch.KillSwitch",
            "io.agentgateway.adminapi.policies.PolicyAdmin", "io.agentgateway.adminapi.policies.WorkspaceDefaults",
            "io.agentgateway.adminapi.policies.PolicyTests", "io.agentgateway.adminapi.backtest.Backtests",
            "io.agentgateway.adminapi.keys.ApiKeyAdmin", "io.agentgateway.adminapi.members.MemberAdmin",
            "io.agentgateway.adminapi.notifications.NotificationSettingsAdmin",
            "io.agentgateway.adminapi.notifications.DeadLetters", "io.agentgateway.adminapi.tools.ToolConnections",
            "io.agentgateway.adminapi.tools.ToolSettingsView", "io.agentgateway.adminapi.workspaces.Workspaces",
            "io.agentgateway.adminapi.oauth.OAuthFlows", "io.agentgateway.adminapi.shared.Applied",
            "io.agentgateway.httpedge.auth.AuthenticatedUser", "io.agentgateway.httpedge.auth.JwtVerifier",
            "io.agentgateway.httpedge.auth.OidcIssuer", "io.agentgateway.httpedge.auth.OidcProperties",
            "io.agentgateway.actiongate.callview.ApprovalStatusSql", "io.agentgateway.httpedge.web.IngressTables",
            "io.agentgateway.httpedge.web.IngressMigrations",
            "io.agentgateway.actiongate.connection.ReadModelProgress",
            "io.agentgateway.httpedge.web.ApiException", "io.agentgateway.httpedge.web.Blocking",
            "io.agentgateway.httpedge.web.CorrelationIds", "io.agentgateway.httpedge.web.MethodRoutes",
            "io.agentgateway.httpedge.web.PublicBaseUrl", "io.agentgateway.httpedge.web.ReadModelFailures");

    /** The console's internals: everything but its root package (the configuration, the application, sign-in links). */
    static final String[] CONSOLE_INTERNALS = {"io.agentgateway.console.admin..", "io.agentgateway.console.approvals..", "io.agentgateway.console.audit..",
            "io.agentgateway.console.killswitch..", "io.agentgateway.console.live..", "io.agentgateway.console.session..",
            "io.agentgateway.console.web.."};

    /** The projector's API: ProjectorApplication and its settings, the read-model rebuild. */
    static final String[] PROJECTOR_INTERNALS = {"io.agentgateway.projector.consume..", "io.agentgateway.projector.readmodel.."};

    /** The notifier's API: NotifierApplication. */
    static final String[] NOTIFIER_INTERNALS = {"io.agentgateway.notifier.channel..", "io.agentgateway.notifier.ledger.."};

    @ArchTest
    static final ArchRule decisionStreamInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.decisionstream..")
            .should().dependOnClassesThat().resideInAnyPackage(DECISION_STREAM_INTERNALS)
            .because("the decision stream's topology is its own");

    @ArchTest
    static final ArchRule httpEdgeCarriesNoDecisionStream = noClasses()
            .that().resideInAnyPackage(concat(INGRESS_MODULES, new String[] {"io.agentgateway.console.."}))
            .should().dependOnClassesThat().resideInAnyPackage(DECISION_STREAM_PACKAGES)
            .because("the ingress meets the decision stream only on the log (and, in one process, through the wire"
                    + " contract's LocalReplyChannel); the back-test is a library of its own");

    @ArchTest
    static final ArchRule decisionCoreIsUsedThroughItsApi = noClasses()
            .that().resideOutsideOfPackages(DecisionCoreTest.CORE)
            .should().dependOnClassesThat(decisionCoreInternals())
            .because("the topology, the back-test and the benchmark decide through DecisionCore; handlers, the"
                    + " evaluation order and the outcome assembly are the core's own");

    @ArchTest
    static final ArchRule ingressInternalsStayInside = noClasses()
            .that().resideOutsideOfPackages(concat(INGRESS_MODULES, new String[] {"io.agentgateway.console.."}))
            .should().dependOnClassesThat(ingressInternals())
            .because("other modules use the ingress through IngressApplication, adminapi.api, adminapi.export,"
                    + " adminapi.evidence and the gateway client only");

    @ArchTest
    static final ArchRule theConsoleUsesOnlyTheIngressServicesNamedForIt = noClasses()
            .that().resideInAPackage("io.agentgateway.console..")
            .should().dependOnClassesThat(ingressInternalsBut(CONSOLE_MAY_USE))
            .because("the console changes state only through the ingress's application services (the decision stream, in"
                    + " log order) and reads what the admin API reads");

    @ArchTest
    static final ArchRule consoleInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.console..")
            .should().dependOnClassesThat().resideInAnyPackage(CONSOLE_INTERNALS)
            .because("the ingress imports the console's ConsoleConfiguration and the launcher prints its SignInLinks; the rest is its own");

    @ArchTest
    static final ArchRule projectorInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.projector..")
            .should().dependOnClassesThat().resideInAnyPackage(PROJECTOR_INTERNALS)
            .because("other modules use the projector through ProjectorApplication and projector.rebuild only");

    @ArchTest
    static final ArchRule notifierInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.notifier..")
            .should().dependOnClassesThat().resideInAnyPackage(NOTIFIER_INTERNALS)
            .because("other modules start the notifier through NotifierApplication only");

    @ArchTest
    static final ArchRule theIngressRunsNoNotifier = noClasses()
            .that().resideInAnyPackage(concat(INGRESS_MODULES, new String[] {"io.agentgateway.console.."}))
            .should().dependOnClassesThat().resideInAPackage("io.agentgateway.notifier..")
            .because("the notifier is an application of its own; what the ingress shares with it (the dead letters' redrive,"
                    + " the topics) is the wire contract's");

    @ArchTest
    static final ArchRule launcherCommandLineUsesNoIngressInternals = noClasses()
            .that().resideInAPackage("io.agentgateway.launcher.cli..")
            .should().dependOnClassesThat(ingressInternals())
            .because("the command line applies the admin API's rules through ingress.api.AdminApiRules");

    @ArchTest
    static final ArchRule librariesDependOnNoServiceModule = noClasses()
            .that().resideInAnyPackage("io.agentgateway.schemas..", "io.agentgateway.gatewayconfig..",
                    "io.agentgateway.classification..", "io.agentgateway.egress..", "io.agentgateway.embeddedinfra..",
                    "io.agentgateway.gatewaytracing..", "io.agentgateway.evidence..")
            .should().dependOnClassesThat().resideInAnyPackage("io.agentgateway.decisionstream..", "io.agentgateway.ingressapi..",
                    "io.agentgateway.projector..", "io.agentgateway.notifier..", "io.agentgateway.launcher..",
                    "io.agentgateway.benchmark..", "io.agentgateway.faultsuite..")
            .because("the libraries sit under the services, never beside them");

    @ArchTest
    static final ArchRule backtestIsALibraryOnTheDecisionCore = noClasses()
            .that().resideInAPackage("io.agentgateway.backtest..")
            .should().dependOnClassesThat().resideInAnyPackage(concat(DECISION_STREAM_PACKAGES, new String[] {
                    "io.agentgateway.projector..", "io.agentgateway.notifier..", "io.agentgateway.launcher..",
                    "org.springframework..", "org.apache.kafka.streams.."}, INGRESS_MODULES))
            .because("the back-test replays recorded history through the decision core alone, for the admin API and"
                    + " the command line alike");

    @ArchTest
    static final ArchRule wireContractAndClassificationHaveNoSpring = noClasses()
            .that().resideInAnyPackage("io.agentgateway.schemas..", "io.agentgateway.classification..")
            .should().dependOnClassesThat().resideInAPackage("org.springframework..")
            .because("the wire contract and the classification are plain libraries both sides share");

    @ArchTest
    static final ArchRule theDecisionCoreIsNotTraced = noClasses()
            .that().resideInAnyPackage(DecisionCoreTest.CORE)
            .should().dependOnClassesThat().resideInAnyPackage("io.agentgateway.gatewaytracing..", "io.opentelemetry..")
            .because("a decision is a pure function of the command and the state; its span belongs to the topology around it");

    @ArchTest
    static final ArchRule classificationHasNoKafka = noClasses()
            .that().resideInAPackage("io.agentgateway.classification..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("classification is a function of the call alone");

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }

    /** A class of the ingress's modules outside its API packages (sub-packages of an API package are internal). */
    private static DescribedPredicate<JavaClass> ingressInternals() {
        return DescribedPredicate.describe("belong to the ingress's internals", type ->
                JavaClass.Predicates.resideInAnyPackage(INGRESS_MODULES).test(type)
                        && !java.util.Arrays.asList(INGRESS_API_PACKAGES).contains(type.getPackageName()));
    }

    /** An ingress class outside its API packages and not one of {@code allowed} (nested classes count as their top-level class). */
    private static DescribedPredicate<JavaClass> ingressInternalsBut(Set<String> allowed) {
        DescribedPredicate<JavaClass> named = DescribedPredicate.describe("the ingress classes named for the console",
                type -> allowed.contains(type.getName().split("\\$", 2)[0]));
        return ingressInternals().and(DescribedPredicate.not(named))
                .as("belong to the ingress's internals but not to what the console may use");
    }

    @ArchTest
    static final ArchRule evidenceStandsAlone = classes()
            .that().resideInAPackage("io.agentgateway.evidence..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.agentgateway.evidence..", "java..",
                    "tools.jackson.core..")
            .because("the evidence library is what an auditor runs: the JDK and Jackson's streaming parser, none of our"
                    + " modules, no Kafka, no Spring");

    /** A decision-core class that is not part of its API (nested classes count as their top-level class). */
    private static DescribedPredicate<JavaClass> decisionCoreInternals() {
        DescribedPredicate<JavaClass> api = DescribedPredicate.describe("the decision core's API", type -> {
            String topLevel = type.getName().split("\\$", 2)[0];
            return DECISION_CORE_API.contains(topLevel) || (!DECISION_CORE_INTERNAL_STATE.equals(topLevel)
                    && JavaClass.Predicates.resideInAnyPackage(DECISION_CORE_API_PACKAGES).test(type));
        });
        return JavaClass.Predicates.resideInAnyPackage(DecisionCoreTest.CORE).and(DescribedPredicate.not(api))
                .as("belong to the decision core but not to its API");
    }
}
