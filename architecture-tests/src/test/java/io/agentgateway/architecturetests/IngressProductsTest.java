package io.agentgateway.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;

/**
 * The ingress is assembled from layered modules: what the products share ({@link #SHARED}: request-reply over Kafka,
 * the HTTP edge, the action gate) and the products themselves ({@link #PRODUCTS}: the doors, the admin API and the
 * executor). A product uses another only through a shared module, the shared modules know no product, and no module of
 * the ingress has a cycle between its packages. The application module ({@code ingress-api}) wires them all and the
 * console is a client of the admin API's services ({@code ModuleBoundariesTest}).
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class IngressProductsTest {
    static final List<String> PRODUCTS = List.of("agent-api", "mcp-gate", "tool-proxy", "webhooks", "admin-api",
            "approval-executor");
    static final List<String> SHARED = List.of("gateway-client", "http-edge", "action-gate");

    static final SliceAssignment BY_PRODUCT = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return PRODUCTS.stream().filter(module -> inModule(javaClass, module)).findFirst()
                    .map(SliceIdentifier::of).orElse(SliceIdentifier.ignore());
        }

        @Override
        public String getDescription() {
            return "the ingress's products";
        }
    };

    @ArchTest
    static final ArchRule productsDependOnEachOtherOnlyThroughSharedModules = slices()
            .assignedFrom(BY_PRODUCT).should().notDependOnEachOther()
            .because("a product of the ingress uses another only through a shared module");

    @ArchTest
    static final ArchRule sharedModulesDependOnNoProduct = noClasses()
            .that().resideInAnyPackage(ModuleClasses.packagesOf(SHARED.toArray(String[]::new)))
            .should().dependOnClassesThat().resideInAnyPackage(ModuleClasses.packagesOf(PRODUCTS.toArray(String[]::new)))
            .because("what the products share must not know any one of them");

    /** Each package of the ingress's modules (the console's included) a slice of its own. */
    static final SliceAssignment BY_INGRESS_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return ingressModules().stream()
                    .anyMatch(module -> inModule(javaClass, module))
                    ? SliceIdentifier.of(javaClass.getPackageName()) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the ingress's packages";
        }
    };

    @ArchTest
    static final ArchRule ingressPackagesAreFreeOfCycles = slices()
            .assignedFrom(BY_INGRESS_PACKAGE).should().beFreeOfCycles()
            .because("a cycle between packages makes neither understandable alone");

    static List<String> ingressModules() {
        return java.util.stream.Stream.of(SHARED, PRODUCTS, List.of("ingress-api", "console"))
                .flatMap(List::stream).toList();
    }

    static boolean inModule(JavaClass type, String module) {
        String base = ModuleClasses.basePackage(module);
        return type.getPackageName().equals(base) || type.getPackageName().startsWith(base + ".");
    }
}
