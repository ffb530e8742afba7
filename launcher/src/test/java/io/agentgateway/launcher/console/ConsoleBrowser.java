package io.agentgateway.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.ConsoleIdentityProvider;
import io.agentgateway.schemas.GatewayJson;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import tools.jackson.databind.JsonNode;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) driven through WebDriver, on a fresh
 * profile, for the console's browser suite: navigation, sign-in at the OpenID provider's own pages, screenshots into
 * {@code docs/console/}, and axe-core scans.
 */
final class ConsoleBrowser implements AutoCloseable {
    static final Path SCREENSHOTS = Path.of("..", "docs", "console");
    private static final int WIDTH = 1280;

    final ChromeDriver driver;
    private final String base;
    private final Path profile;

    private ConsoleBrowser(ChromeDriver driver, String base, Path profile) {
        this.driver = driver;
        this.base = base;
        this.profile = profile;
    }

    static ConsoleBrowser start(String base) {
        try {
            Path profile = Files.createTempDirectory("console-chromium-");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(new File(System.getProperty("console.chromium", "/usr/bin/chromium")));
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=" + WIDTH + ",1000",
                    "--lang=en-US");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(System.getProperty("console.chromedriver", "/usr/bin/chromedriver")))
                    .usingAnyFreePort().build();
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
            return new ConsoleBrowser(driver, base, profile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void open(String path) {
        driver.get(path.startsWith("http") ? path : base + path);
    }

    String path() {
        String url = driver.getCurrentUrl();
        return url.startsWith(base) ? url.substring(base.length()) : url;
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    String text(String css) {
        return find(css).getText();
    }

    String bodyText() {
        return find("body").getText();
    }

    Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    /** Waits until {@code css} matches an element (else fails with the page the browser shows). */
    WebElement await(String css) {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> !all(css).isEmpty());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("no " + css + " on " + driver.getCurrentUrl() + ":\n" + pageText(), e);
        }
        return find(css);
    }

    private String pageText() {
        try {
            return bodyText();
        } catch (RuntimeException e) {
            return driver.getPageSource();
        }
    }

    /**
     * Signs in at the OpenID provider's own login page as {@code login} (its development interactions take any login
     * name as the subject): from the console's sign-in page, or when the console sent the browser there already.
     */
    void signInAtProvider(String login) {
        try {
            signInAtProviderAs(login);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("signing in as " + login + " stopped at " + driver.getCurrentUrl() + ":\n" + pageText(), e);
        }
    }

    private void signInAtProviderAs(String login) {
        // a click that started a navigation may not have left the page yet: wait for the provider or the sign-in page
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> driver.getCurrentUrl().startsWith(ConsoleIdentityProvider.issuer()) || !all("#signin-button").isEmpty());
        if (!driver.getCurrentUrl().startsWith(ConsoleIdentityProvider.issuer())) {
            await("#signin-button").click();
        }
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> !all("input[name=login]").isEmpty());
        find("input[name=login]").sendKeys(login);
        find("input[name=password]").sendKeys("any password");
        find("button[type=submit]").click();
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> driver.getCurrentUrl().startsWith(base) && !path().startsWith("/signin"));
    }

    /** The console's session cookie (for the suite's own HTTP requests as this browser). */
    String sessionCookie() {
        Cookie cookie = driver.manage().getCookieNamed("agw_session");
        assertThat(cookie).as("the session cookie").isNotNull();
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.getSameSite()).isEqualTo("Lax");
        return cookie.getValue();
    }

    /** A screenshot of the whole page (the window as tall as the page, up to 3,000 px) into docs/console/{name}.png. */
    void screenshot(String name) {
        script("if (document.activeElement) { document.activeElement.blur(); } window.scrollTo(0, 0);");
        // twice: the page's height at the new window size can differ from the first measure (the layout reflows)
        for (int pass = 0; pass < 2; pass++) {
            long height = ((Number) script("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)")).longValue();
            driver.manage().window().setSize(new Dimension(WIDTH, (int) Math.min(3000, Math.max(700, height + 140))));
        }
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            driver.manage().window().setSize(new Dimension(WIDTH, 1000));
        }
    }

    /** axe-core's violations of impact serious or critical on the current page, as readable lines. */
    List<String> seriousAccessibilityViolations() {
        if (!Boolean.TRUE.equals(script("return typeof window.axe !== 'undefined'"))) {
            script(ConsoleIdentityProvider.axeSource());
        }
        Object result = ((JavascriptExecutor) driver).executeAsyncScript("""
                var done = arguments[arguments.length - 1];
                window.axe.run(document, {resultTypes: ['violations']})
                    .then(function (r) { done(JSON.stringify(r.violations)); })
                    .catch(function (e) { done('ERROR ' + e); });
                """);
        String json = String.valueOf(result);
        assertThat(json).doesNotStartWith("ERROR");
        List<String> serious = new ArrayList<>();
        for (JsonNode violation : GatewayJson.MAPPER.readTree(json)) {
            String impact = violation.path("impact").asString("");
            if (impact.equals("serious") || impact.equals("critical")) {
                List<String> targets = new ArrayList<>();
                violation.path("nodes").forEach(node -> targets.add(node.path("target").toString()));
                serious.add(impact + " " + violation.path("id").asString() + ": " + violation.path("help").asString() + " at " + targets);
            }
        }
        return serious;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            io.agentgateway.embeddedinfra.Directories.deleteRecursively(profile);
        }
    }
}
