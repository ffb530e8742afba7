package io.agentgateway.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The decision core (module {@code decision-core}: the entry point and its handlers, evaluation, outcomes, state) is a
 * plain function of state and command: no Spring and no Kafka in it. The decision stream's topology, the back-test
 * and the benchmark drive it. (Its pom has neither on its compile classpath either; this rule also covers a class
 * that would be moved into one of its packages in another module.)
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class DecisionCoreTest {
    static final String[] CORE = {"io.agentgateway.decisioncore.core..", "io.agentgateway.decisioncore.evaluation..",
            "io.agentgateway.decisioncore.outcome..", "io.agentgateway.decisioncore.state..", "io.agentgateway.decisioncore.condition..",
            "io.agentgateway.decisioncore.evidence.."};

    /**
     * What the core may use besides itself: the wire contract, the classification, the evidence library (the Merkle
     * log it seals outcomes into), Jackson, the JDK, and for policy conditions cel-java (with the Guava collections its
     * API hands out).
     */
    static final String[] ALLOWED = {"io.agentgateway.decisioncore.core..", "io.agentgateway.decisioncore.evaluation..",
            "io.agentgateway.decisioncore.outcome..", "io.agentgateway.decisioncore.state..", "io.agentgateway.decisioncore.condition..",
            "io.agentgateway.decisioncore.evidence..", "io.agentgateway.schemas..", "io.agentgateway.classification..",
            "io.agentgateway.evidence..", "tools.jackson..", "com.fasterxml.jackson..", "dev.cel..",
            "com.google.common.collect..", "java.."};

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

    @ArchTest
    static final ArchRule theCoreStandsOnTheWireContractAlone = classes()
            .that().resideInAnyPackage(CORE)
            .should().onlyDependOnClassesThat().resideInAnyPackage(ALLOWED)
            .because("the core is a library under the decision stream: it knows the wire contract and the"
                    + " classification, never the topology, the runtime or another service");
}
