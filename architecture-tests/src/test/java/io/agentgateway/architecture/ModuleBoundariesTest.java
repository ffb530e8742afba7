package io.agentgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.FreezingArchRule;

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

    /** The decision stream's API: its applications and settings, running it (config, runtime), in-process replies, the back-test. */
    static final String[] DECISION_INTERNALS = {"io.agentgateway.decision.evaluation..", "io.agentgateway.decision.core..",
            "io.agentgateway.decision.outcome..", "io.agentgateway.decision.state..", "io.agentgateway.decision.topology.."};

    /** The ingress's API: IngressApplication, api (rules for the CLI), export (the audit export), gateway (the command gateway). */
    static final String[] INGRESS_INTERNALS = {"io.agentgateway.ingress.admin..", "io.agentgateway.ingress.approval..",
            "io.agentgateway.ingress.auth..", "io.agentgateway.ingress.callview..", "io.agentgateway.ingress.config..",
            "io.agentgateway.ingress.connection..", "io.agentgateway.ingress.edge..", "io.agentgateway.ingress.egress..",
            "io.agentgateway.ingress.evaluate..", "io.agentgateway.ingress.execution..", "io.agentgateway.ingress.killswitch..",
            "io.agentgateway.ingress.limits..", "io.agentgateway.ingress.mcp..", "io.agentgateway.ingress.oauth..",
            "io.agentgateway.ingress.proxy..", "io.agentgateway.ingress.secret..", "io.agentgateway.ingress.web..",
            "io.agentgateway.ingress.webhook.."};

    /** The projector's API: ProjectorApplication and its settings, the read-model rebuild. */
    static final String[] PROJECTOR_INTERNALS = {"io.agentgateway.projector.consume..", "io.agentgateway.projector.readmodel.."};

    /** The notifier's API: NotifierApplication. */
    static final String[] NOTIFIER_INTERNALS = {"io.agentgateway.notifier.channel..", "io.agentgateway.notifier.ledger.."};

    /**
     * Frozen: the benchmark's DecidedHistory drives CommandHandlers, OutcomeAssembler and WorkspaceState directly
     * (issue 18: the decision core's public decide(state, command) API replaces them; not this wave).
     */
    @ArchTest
    static final ArchRule decisionInternalsStayInside = FreezingArchRule.freeze(noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.decision..")
            .should().dependOnClassesThat().resideInAnyPackage(DECISION_INTERNALS)
            .because("the decision stream's evaluation, handlers, outcomes, state and topology are its own"));

    @ArchTest
    static final ArchRule ingressInternalsStayInside = noClasses()
            .that().resideOutsideOfPackage("io.agentgateway.ingress..")
            .should().dependOnClassesThat().resideInAnyPackage(INGRESS_INTERNALS)
            .because("other modules use the ingress through IngressApplication, ingress.api, ingress.export and"
                    + " ingress.gateway only");

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
                    "io.agentgateway.classification..", "io.agentgateway.egress..", "io.agentgateway.embedded..")
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
}
