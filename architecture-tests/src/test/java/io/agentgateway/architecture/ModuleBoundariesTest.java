package io.agentgateway.architecture;

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
    static final String[] DECISION_STREAM_INTERNALS = {"io.agentgateway.decision.topology.."};
    /** Every package of the decision-stream module (the decision core's packages are not among them). */
    static final String[] DECISION_STREAM_PACKAGES = {"io.agentgateway.decision", "io.agentgateway.decision.config..",
            "io.agentgateway.decision.runtime..", "io.agentgateway.decision.local..", "io.agentgateway.decision.topology.."};

    /**
     * The decision core's public API (module decision-core): the entry point and its settings, the state a driver
     * hands in and keeps (the whole {@code state} package but {@code Wildcards}), the outcome, and what the back-test
     * replays an evaluation with. Everything else is package-private, or public only because the core spans packages
     * ({@code ActionDecider}, {@code OutrightBlocks}, {@code Wildcards}): this rule keeps those inside.
     */
    static final Set<String> DECISION_CORE_API = Set.of("io.agentgateway.decision.core.DecisionCore",
            "io.agentgateway.decision.core.CommandDecision", "io.agentgateway.decision.core.DecisionSettings",
            "io.agentgateway.decision.core.DecisionLimits", "io.agentgateway.decision.evaluation.ActionRequest",
            "io.agentgateway.decision.evaluation.Verdict", "io.agentgateway.decision.evaluation.Explanation");
    /** ... and policy conditions (their limits, compiling and checking one, the facts of a command, their values) and
     * the evidence the core seals. */
    static final String[] DECISION_CORE_API_PACKAGES = {"io.agentgateway.decision.outcome..", "io.agentgateway.decision.state..",
            "io.agentgateway.decision.condition..", "io.agentgateway.decision.evidence.."};
    static final String DECISION_CORE_INTERNAL_STATE = "io.agentgateway.decision.state.Wildcards";

    /**
     * The ingress's API: IngressApplication, api (rules for the CLI), export (the audit export), evidence (the Merkle
     * log's reads, the live check and the evidence export, for the CLI), gateway (the command gateway).
     */
    static final String[] INGRESS_INTERNALS = {"io.agentgateway.ingress.admin..", "io.agentgateway.ingress.approval..",
            "io.agentgateway.ingress.auth..", "io.agentgateway.ingress.callview..", "io.agentgateway.ingress.config..",
            "io.agentgateway.ingress.connection..", "io.agentgateway.ingress.edge..", "io.agentgateway.ingress.egress..",
            "io.agentgateway.ingress.evaluate..", "io.agentgateway.ingress.execution..", "io.agentgateway.ingress.heldcall..",
            "io.agentgateway.ingress.killswitch..",
            "io.agentgateway.ingress.limits..", "io.agentgateway.ingress.mcp..", "io.agentgateway.ingress.oauth..",
            "io.agentgateway.ingress.proxy..", "io.agentgateway.ingress.secret..", "io.agentgateway.ingress.web..",
            "io.agentgateway.ingress.webhook.."};

    /**
     * What the console (module console, assembled into the ingress's context) may use of the ingress's internals, by
     * class: the application services every state change goes through ({@code ApprovalReviews},
     * {@code KillSwitchCommands}), the admin API's reads it shows (approvals, the audit query and its export),
     * identity ({@code JwtVerifier}, {@code OidcIssuer}), the ingress's own schema, the read model's progress, and the
     * HTTP helpers of {@code web}. Nothing else: no handler, no repository of another product, no command sent by hand.
     */
    static final Set<String> CONSOLE_MAY_USE = Set.of(
            "io.agentgateway.ingress.admin.ApprovalReviews", "io.agentgateway.ingress.admin.ApprovalRequestRepository",
            "io.agentgateway.ingress.admin.AuditLogQuery", "io.agentgateway.ingress.admin.AuditLogRepository",
            "io.agentgateway.ingress.admin.AuditCursor", "io.agentgateway.ingress.admin.AuditExportHandler",
            "io.agentgateway.ingress.killswitch.KillSwitchCommands",
            // the admin half: the admin API's application services (every change a command through the stream, every
            // body checked by the API's own rules) and their reads
            "io.agentgateway.ingress.admin.PolicyAdmin", "io.agentgateway.ingress.admin.WorkspaceDefaults",
            "io.agentgateway.ingress.admin.Backtests", "io.agentgateway.ingress.admin.PolicyTests",
            "io.agentgateway.ingress.admin.ApiKeyAdmin", "io.agentgateway.ingress.admin.MemberAdmin",
            "io.agentgateway.ingress.admin.NotificationSettingsAdmin", "io.agentgateway.ingress.admin.DeadLetters",
            "io.agentgateway.ingress.admin.ToolConnections", "io.agentgateway.ingress.admin.ToolSettingsView",
            "io.agentgateway.ingress.admin.Workspaces", "io.agentgateway.ingress.admin.ChangeHistory",
            "io.agentgateway.ingress.oauth.OAuthFlows",
            "io.agentgateway.ingress.auth.AuthenticatedUser", "io.agentgateway.ingress.auth.JwtVerifier",
            "io.agentgateway.ingress.auth.OidcIssuer", "io.agentgateway.ingress.auth.OidcProperties",
            "io.agentgateway.ingress.callview.ApprovalStatusSql", "io.agentgateway.ingress.web.IngressTables",
            "io.agentgateway.ingress.connection.ReadModelProgress",
            "io.agentgateway.ingress.web.ApiException", "io.agentgateway.ingress.web.Blocking",
            "io.agentgateway.ingress.web.CorrelationIds", "io.agentgateway.ingress.web.MethodRoutes",
            "io.agentgateway.ingress.web.PublicBaseUrl", "io.agentgateway.ingress.web.ReadModelFailures");

    /** The console's internals: everything but its root package (the configuration, the application, sign-in links). */
    static final String[] CONSOLE_INTERNALS = {"io.agentgateway.console.admin..", "io.agentgateway.console.approvals..", "io.agentgateway.console.audit..",
            "io.agentgateway.console.killswitch..", "io.agentgateway.console.live..", "io.agentgateway.console.web.."};

    /** The projector's API: ProjectorApplication and its settings, the read-model rebuild. */
    static final String[] PROJECTOR_INTERNALS = {"io.agentgateway.projector.consume..", "io.agentgateway.projector.readmodel.."};

    /** The notifier's API: NotifierApplication. */
    static final String[] NOTIFIER_INTERNALS = {"io.agentgateway.notifier.channel..", "io.agentgateway.notifier.ledger.."};

    @ArchTest
    static final ArchRule decisionStreamInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.decision..")
            .should().dependOnClassesThat().resideInAnyPackage(DECISION_STREAM_INTERNALS)
            .because("the decision stream's topology is its own");

    @ArchTest
    static final ArchRule httpEdgeCarriesNoDecisionStream = noClasses()
            .that().resideInAPackage("io.agentgateway.ingress..")
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
            .that().resideOutsideOfPackages("io.agentgateway.ingress..", "io.agentgateway.console..")
            .should().dependOnClassesThat().resideInAnyPackage(INGRESS_INTERNALS)
            .because("other modules use the ingress through IngressApplication, ingress.api, ingress.export,"
                    + " ingress.evidence and ingress.gateway only");

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
    static final ArchRule launcherCommandLineUsesNoIngressInternals = noClasses()
            .that().resideInAPackage("io.agentgateway.launcher.cli..")
            .should().dependOnClassesThat().resideInAnyPackage(INGRESS_INTERNALS)
            .because("the command line applies the admin API's rules through ingress.api.AdminApiRules");

    @ArchTest
    static final ArchRule librariesDependOnNoServiceModule = noClasses()
            .that().resideInAnyPackage("io.agentgateway.schemas..", "io.agentgateway.config..",
                    "io.agentgateway.classification..", "io.agentgateway.egress..", "io.agentgateway.embedded..",
                    "io.agentgateway.tracing..", "io.agentgateway.evidence..")
            .should().dependOnClassesThat().resideInAnyPackage("io.agentgateway.decision..", "io.agentgateway.ingress..",
                    "io.agentgateway.projector..", "io.agentgateway.notifier..", "io.agentgateway.launcher..",
                    "io.agentgateway.benchmark..", "io.agentgateway.faults..")
            .because("the libraries sit under the services, never beside them");

    @ArchTest
    static final ArchRule backtestIsALibraryOnTheDecisionCore = noClasses()
            .that().resideInAPackage("io.agentgateway.backtest..")
            .should().dependOnClassesThat().resideInAnyPackage(concat(DECISION_STREAM_PACKAGES, new String[] {
                    "io.agentgateway.ingress..", "io.agentgateway.projector..", "io.agentgateway.notifier..",
                    "io.agentgateway.launcher..", "org.springframework..", "org.apache.kafka.streams.."}))
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
            .should().dependOnClassesThat().resideInAnyPackage("io.agentgateway.tracing..", "io.opentelemetry..")
            .because("a decision is a pure function of the command and the state; its span belongs to the topology around it");

    @ArchTest
    static final ArchRule classificationHasNoKafka = noClasses()
            .that().resideInAPackage("io.agentgateway.classification..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("classification is a function of the call alone");

    private static String[] concat(String[] first, String[] second) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(first), java.util.Arrays.stream(second))
                .toArray(String[]::new);
    }

    /** An ingress class outside its API packages and not one of {@code allowed} (nested classes count as their top-level class). */
    private static DescribedPredicate<JavaClass> ingressInternalsBut(Set<String> allowed) {
        DescribedPredicate<JavaClass> named = DescribedPredicate.describe("the ingress classes named for the console",
                type -> allowed.contains(type.getName().split("\\$", 2)[0]));
        return JavaClass.Predicates.resideInAnyPackage(INGRESS_INTERNALS).and(DescribedPredicate.not(named))
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
