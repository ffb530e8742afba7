package io.agentgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The decision core (evaluation, handlers, outcomes, state) is a plain function of state and command: no
 * Spring and no Kafka in it. The topology, the runtime and the configuration wrap it.
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class DecisionCoreTest {
    static final String[] CORE = {"io.agentgateway.decision.evaluation..", "io.agentgateway.decision.core..",
            "io.agentgateway.decision.outcome..", "io.agentgateway.decision.state.."};

    @ArchTest
    static final ArchRule noSpringInTheCore = noClasses()
            .that().resideInAnyPackage(CORE)
            .should().dependOnClassesThat().resideInAPackage("org.springframework..")
            .because("the decision core is a library, not a Spring component");

    @ArchTest
    static final ArchRule noKafkaInTheCore = noClasses()
            .that().resideInAnyPackage(CORE)
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("the decision core is testable without Kafka; the topology feeds it");
}
