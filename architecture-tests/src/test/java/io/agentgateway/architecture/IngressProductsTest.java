package io.agentgateway.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Map;

/**
 * The ingress holds several products; each depends on the others only through the named shared packages
 * ({@link #SHARED}), and the shared packages depend on no product. The root package
 * ({@code IngressApplication}, {@code IngressRoutes}) wires them all, and {@code api} publishes some of them to
 * other modules: both are in neither group.
 *
 * <p>None of the three rules is frozen: the violations found when they were written (the proxy and the MCP gate using
 * the approval executor's held-call types, the proxy the admin API's public base URL, the admin API the webhooks'
 * routing, the HTTP edge the proxy's settings, the {@code gateway} - {@code web} cycle) were removed in issue 18 by
 * giving each shared thing a shared home. Any violation fails the build.
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class IngressProductsTest {
    private static final String INGRESS = "io.agentgateway.ingress.";

    /** Product of each ingress package (its first segment below {@code io.agentgateway.ingress}). */
    static final Map<String, String> PRODUCTS = Map.ofEntries(
            Map.entry("admin", "admin API"), Map.entry("oauth", "admin API"), Map.entry("export", "admin API"),
            Map.entry("evidence", "admin API"),
            Map.entry("killswitch", "admin API"),
            Map.entry("approval", "approvals"), Map.entry("execution", "approvals"),
            Map.entry("evaluate", "agent API"),
            Map.entry("mcp", "MCP gate"),
            Map.entry("proxy", "proxy"),
            Map.entry("webhook", "webhooks"));

    /**
     * What the products share: the command gateway, the HTTP plumbing, authentication, settings, connections, the
     * held-call SPI ({@code heldcall}: what the executor runs and the products that hold calls implement) and the
     * action gate every entry point decides through.
     */
    static final String[] SHARED = {INGRESS + "gateway..", INGRESS + "web..", INGRESS + "auth..", INGRESS + "config..",
            INGRESS + "connection..", INGRESS + "edge..", INGRESS + "egress..", INGRESS + "limits..", INGRESS + "secret..",
            INGRESS + "callview..", INGRESS + "heldcall..", INGRESS + "gate.."};

    static final SliceAssignment BY_PRODUCT = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String product = PRODUCTS.get(firstSegment(javaClass.getPackageName()));
            return product == null ? SliceIdentifier.ignore() : SliceIdentifier.of(product);
        }

        @Override
        public String getDescription() {
            return "the ingress's products";
        }
    };

    @ArchTest
    static final ArchRule productsDependOnEachOtherOnlyThroughSharedPackages = slices()
            .assignedFrom(BY_PRODUCT).should().notDependOnEachOther()
            .because("a product of the ingress uses another only through a named shared package");

    @ArchTest
    static final ArchRule sharedPackagesDependOnNoProduct = noClasses()
            .that().resideInAnyPackage(SHARED)
            .should().dependOnClassesThat().resideInAnyPackage(PRODUCTS.keySet().stream().sorted() // sorted: a
                    .map(p -> INGRESS + p + "..").toArray(String[]::new)) // deterministic description
            .because("what the products share must not know any one of them");

    @ArchTest
    static final ArchRule ingressPackagesAreFreeOfCycles = slices()
            .matching("io.agentgateway.ingress.(*)..").should().beFreeOfCycles()
            .because("a cycle between packages makes neither understandable alone");

    private static String firstSegment(String packageName) {
        if (!packageName.startsWith(INGRESS)) {
            return "";
        }
        String rest = packageName.substring(INGRESS.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
