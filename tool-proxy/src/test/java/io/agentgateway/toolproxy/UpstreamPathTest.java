package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpStatus;

/** The proxy's one reading of a request target: canonical segments, the form it is forwarded in, and what is refused. */
class UpstreamPathTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // canonical already: forwarded as received
            "/repos/acme/api/pulls/7/merge            | /repos/acme/api/pulls/7/merge            | repos,acme,api,pulls,7,merge",
            "/                                        | /                                        | ''",
            "/repos/acme/api/                         | /repos/acme/api/                         | repos,acme,api",
            "/v1/projects/p:batchGet                  | /v1/projects/p:batchGet                  | v1,projects,p:batchGet",
            "/users/@me/guilds                        | /users/@me/guilds                        | users,@me,guilds",
            // an encoded slash is a separator (octokit's git.deleteRef, repos.getContent)
            "/repos/acme/api/git/refs/heads%2Ffeature-x | /repos/acme/api/git/refs/heads/feature-x | repos,acme,api,git,refs,heads,feature-x",
            "/repos/acme/api/contents/docs%2fa%20b.md | /repos/acme/api/contents/docs/a%20b.md   | repos,acme,api,contents,docs,a b.md",
            "/repos/acme/api/pulls/7%2Fmerge          | /repos/acme/api/pulls/7/merge            | repos,acme,api,pulls,7,merge",
            "/admin%2Fusers%2F7%2Fban                 | /admin/users/7/ban                       | admin,users,7,ban",
            // decoded once, encoded again by one strict encoder
            "/a/%41%62c                               | /a/Abc                                   | a,Abc",
            "/a/b+c                                   | /a/b%2Bc                                 | a,b+c",
            "/a/%C3%A9t%C3%A9                         | /a/%C3%A9t%C3%A9                         | a,été",
            "/a/%7e%21                                | /a/~!                                    | a,~!",
            "/a/x%20y                                 | /a/x%20y                                 | a,x y",
    })
    void aTargetIsReadOnceAndForwardedInItsCanonicalForm(String raw, String canonical, String segments) {
        UpstreamPath path = UpstreamPath.parse(raw, null);
        assertThat(path.canonical()).isEqualTo(canonical);
        assertThat(path.segments()).isEqualTo(segments.isEmpty() ? List.of() : List.of(segments.split(",")));
        // the canonical form reads the same: classified and forwarded are one
        assertThat(UpstreamPath.parse(path.canonical(), null).segments()).isEqualTo(path.segments());
    }

    @Test
    void anAlreadyCanonicalPathIsTheReceivedStringItself() {
        String raw = "/repos/acme/api/issues";
        assertThat(UpstreamPath.parse(raw, null).canonical()).isSameAs(raw);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/repos/acme/api/pulls/7/merge;x=1          | The upstream path must not contain ';' path parameters",
            "/repos/acme/api/pulls/7/merge%3Bx=1        | The upstream path must not contain ';' path parameters",
            "/admin;v=1/users/7/ban                     | The upstream path must not contain ';' path parameters",
            "/repos/acme/api%5Cx                        | The upstream path must not contain backslashes",
            "/repos/acme/api\\x                         | The upstream path must not contain backslashes",
            "/repos/acme/api/pulls/7%252Fmerge          | The upstream path must be percent-encoded once, not twice",
            "/repos/acme/api/pulls/%25                  | The upstream path must be percent-encoded once, not twice",
            "/repos/acme/api/x%00y                      | The upstream path must not contain control characters",
            "/repos/acme/api/x%0Ay                      | The upstream path must not contain control characters",
            "/repos/acme/api/x%7Fy                      | The upstream path must not contain control characters",
            "/repos/acme/api/issues/../contents/x       | The upstream path must not contain '.' or '..' segments",
            "/repos/acme/api/issues/%2E%2E/contents/x   | The upstream path must not contain '.' or '..' segments",
            "/repos/acme/api/issues/%2e%2E%2Fcontents   | The upstream path must not contain '.' or '..' segments",
            "/repos/acme/./api                          | The upstream path must not contain '.' or '..' segments",
            "/repos//api                                | The upstream path must not contain empty segments",
            "/repos/acme%2F%2Fapi                       | The upstream path must not contain empty segments",
            "/repos/acme/api%2F                         | The upstream path must not contain empty segments",
            "/repos/acme/%zz                            | The upstream path is not validly percent-encoded",
            "/repos/acme/%4                             | The upstream path is not validly percent-encoded",
            "/repos/acme/%C3%28                         | The upstream path is not validly percent-encoded UTF-8",
            "repos/acme                                 | The upstream path must start with /",
    })
    void aTargetWithoutOneReadingIsRefused(String raw, String message) {
        assertThatThrownBy(() -> UpstreamPath.parse(raw, null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    @Test
    void theQueryIsForwardedAsReceived() {
        assertThat(UpstreamPath.parse("/a", "state=open&labels=a%2Cb&q=%C3%A9+x").query()).isEqualTo("state=open&labels=a%2Cb&q=%C3%A9+x");
        assertThat(UpstreamPath.parse("/a", "").query()).isNull();
        assertThat(UpstreamPath.parse("/a", "method=x&_methods=y&x_method=z&a=_method").query()).isNotNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "_method=DELETE", "_METHOD=delete", "a=1&_method=PUT", "a=1;_method=PUT", "%5Fmethod=DELETE",
            "_m%65thod=DELETE", "_method", "+.method=DELETE", ".method=DELETE", "%20_method=DELETE",
    })
    void aMethodOverrideInTheQueryIsRefused(String query) {
        assertThatThrownBy(() -> UpstreamPath.parse("/repos/acme/api/pulls/7", query))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("_method");
                });
    }
}
