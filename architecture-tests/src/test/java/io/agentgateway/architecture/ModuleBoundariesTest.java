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

    /** The decision stream's internals: its topology. Its API: the root package (applications), config, runtime, local, backtest. */
    static final String[] DECISION_STREAM_INTERNALS = {"io.agentgateway.decision.topology.."};

    /**
     * The decision core's public API (module decision-core): the entry point and its settings, the state a driver
     * hands in and keeps (the whole {@code state} package but {@code Wildcards}), the outcome, and what the back-test
     * replays an evaluation with. Everything else is package-private, or public only because the core spans packages
     * ({@code ActionDecider}, {@code OutrightBlocks}, {@code Wildcards}): this rule keeps those inside.
     */
    static final Set<String> DECISION_CORE_API = Set.of("io.agentgateway.decision.core.DecisionCore",
            "io.agentgateway.decision.core.CommandDecision", "io.agentgateway.decision.core.DecisionSettings",
            "io.agentgateway.decision.core.DecisionLimits", "io.agentgateway.decision.evaluation.ActionRequest",
            "io.agentgateway.decision.evaluation.Verdict");
    static final String[] DECISION_CORE_API_PACKAGES = {"io.agentgateway.decision.outcome..", "io.agentgateway.decision.state..",
            "io.agentgateway.decision.evidence.."};
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
    static final ArchRule decisionCoreIsUsedThroughItsApi = noClasses()
            .that().resideOutsideOfPackages(DecisionCoreTest.CORE)
            .should().dependOnClassesThat(decisionCoreInternals())
            .because("the topology, the back-test and the benchmark decide through DecisionCore; handlers, the"
                    + " evaluation order and the outcome assembly are the core's own");

    @ArchTest
    static final ArchRule ingressInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.ingress..")
            .should().dependOnClassesThat().resideInAnyPackage(INGRESS_INTERNALS)
            .because("other modules use the ingress through IngressApplication, ingress.api, ingress.export,"
                    + " ingress.evidence and ingress.gateway only");

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
                    "io.agentgateway.evidence..")
            .should().dependOnClassesThat().resideInAnyPackage("io.agentgateway.decision..", "io.agentgateway.ingress..",
                    "io.agentgateway.projector..", "io.agentgateway.notifier..", "io.agentgateway.launcher..",
                    "io.agentgateway.benchmark..", "io.agentgateway.faults..")
            .because("the libraries sit under the services, never beside them");

    @ArchTest
    static final ArchRule wireContractAndClassificationHaveNoSpring = noClasses()
            .that().resideInAnyPackage("io.agentgateway.schemas..", "io.agentgateway.classification..")
            .should().dependOnClassesThat().resideInAPackage("org.springframework..")
            .because("the wire contract and the classification are plain libraries both sides share");

    @ArchTest
    static final ArchRule classificationHasNoKafka = noClasses()
            .that().resideInAPackage("io.agentgateway.classification..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("classification is a function of the call alone");

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
