package io.agentgateway.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * One gate, many doors: evaluate-action, the proxy, the MCP gate and both webhooks have their actions decided through
 * the {@code ActionGate} and only map its decision to their own protocol. None of them publishes a command itself, so
 * command ids, connection versions, stale retries and the reading of replies stand in one place.
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class ActionGateTest {
    static final String GATE = "io.agentgateway.actiongate.ActionGate";
    static final String[] ENTRY_POINTS = {"io.agentgateway.agentapi.evaluate..", "io.agentgateway.toolproxy..",
            "io.agentgateway.mcpgate..", "io.agentgateway.webhooks.."};
    /** Where each entry point asks the gate: evaluate-action, the proxy, the MCP gate's four decided methods, the webhooks. */
    static final String[] DOORS = {"io.agentgateway.agentapi.evaluate.EvaluateActionHandler",
            "io.agentgateway.toolproxy.ProxyTargets", "io.agentgateway.mcpgate.McpToolCallGate",
            "io.agentgateway.webhooks.WebhookHandler"};

    @ArchTest
    static final ArchRule entryPointsPublishNoCommands = noClasses()
            .that().resideInAnyPackage(ENTRY_POINTS)
            .should().dependOnClassesThat().haveFullyQualifiedName("io.agentgateway.gatewayclient.CommandGateway")
            .because("an entry point has its action decided through the ActionGate, never by publishing a command itself");

    @ArchTest
    static final ArchRule everyDoorAsksTheGate = classes()
            .that().haveFullyQualifiedName(DOORS[0]).or().haveFullyQualifiedName(DOORS[1])
            .or().haveFullyQualifiedName(DOORS[2]).or().haveFullyQualifiedName(DOORS[3])
            .should().dependOnClassesThat().haveFullyQualifiedName(GATE)
            .because("each of the five entry points decides through the one application service");
}
