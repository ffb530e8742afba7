package io.agentgateway.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What is particular to a tool is said in its profile ({@code classification.ToolProfiles}); code elsewhere asks the
 * profile ({@code ToolProfiles.of(tool)}, {@code ToolProfiles.where(...)}) and never names a tool: no
 * {@code Tool.CODE_HOST}, no {@code case ISSUE_TRACKER} (an enum switch reads the constants too). So adding a tool is
 * a {@link Tool} constant, its profile and the classes that are its own (ARCHITECTURE.md, "Checklist: adding a
 * tool"), never a hunt for switches. The classes that may name a tool are that code of its own, listed here.
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class ToolProfilesTest {
    private static final String TOOL = Tool.class.getName();
    private static final Set<String> TOOL_CONSTANTS = Arrays.stream(Tool.values()).map(Enum::name).collect(Collectors.toSet());

    /** Classes (top level, with their nested and synthetic classes) that are one tool's own code, or all tools'. */
    static final Set<String> NAME_A_TOOL = Set.of(
            TOOL,
            // the profiles themselves
            "io.agentgateway.classification.ToolProfiles",
            // a webhook format is its sender's, and so is its lookup of the connections a payload names
            "io.agentgateway.webhooks.CodeHostFormat",
            "io.agentgateway.webhooks.IssueTrackerFormat",
            "io.agentgateway.webhooks.WebhookCandidateIndex",
            "io.agentgateway.webhooks.WebhookCandidateQueries");

    /** Packages that are one tool's door, or synthetic traffic over named tools. */
    static final List<String> PACKAGES_THAT_NAME_A_TOOL = List.of(
            // the MCP gate serves the one tool whose profile's door it is
            "io.agentgateway.mcpgate",
            // benchmarks and the fault suite generate traffic for named tools
            "io.agentgateway.benchmark", "io.agentgateway.faultsuite");

    private static final DescribedPredicate<JavaClass> MAY_NAME_A_TOOL =
            DescribedPredicate.describe("are a tool's own code", ToolProfilesTest::mayNameATool);

    private static final DescribedPredicate<JavaFieldAccess> A_TOOL_CONSTANT =
            DescribedPredicate.describe("a constant of " + TOOL, access -> access.getTargetOwner().getName().equals(TOOL)
                    && TOOL_CONSTANTS.contains(access.getTarget().getName()));

    @ArchTest
    static final ArchRule onlyTheProfilesSayWhatIsParticularToATool = noClasses()
            .that(DescribedPredicate.not(MAY_NAME_A_TOOL))
            .should().accessFieldWhere(A_TOOL_CONSTANT)
            .because("what is particular to a tool is its profile's (classification.ToolProfiles): ask the profile,"
                    + " so that adding a tool is its profile and its own classes, not switches in every module");

    @Test
    void everyToolHasAProfile() {
        for (Tool tool : Tool.values()) {
            assertThat(ToolProfiles.of(tool)).as(tool.wire()).isNotNull();
            assertThat(ToolProfiles.of(tool).tool()).isEqualTo(tool);
        }
        assertThat(ToolProfiles.all()).hasSize(Tool.values().length);
    }

    private static boolean mayNameATool(JavaClass javaClass) {
        String name = javaClass.getName();
        int nested = name.indexOf('$');
        String topLevel = nested < 0 ? name : name.substring(0, nested);
        return NAME_A_TOOL.contains(topLevel)
                || PACKAGES_THAT_NAME_A_TOOL.stream().anyMatch(pkg -> javaClass.getPackageName().equals(pkg)
                        || javaClass.getPackageName().startsWith(pkg + "."));
    }
}
