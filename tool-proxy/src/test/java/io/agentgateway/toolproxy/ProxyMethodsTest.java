package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.ApiException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;

/** The method a proxied request is classified by is the one on its request line, and nothing else. */
class ProxyMethodsTest {

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"})
    void theMethodsOfRestAndGraphQlApisCross(String method) {
        assertThat(ProxyMethods.require(HttpMethod.valueOf(method), new HttpHeaders())).isEqualTo(HttpMethod.valueOf(method));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TRACE", "CONNECT", "PROPFIND", "MERGE", "get", "Delete"})
    void everyOtherMethodIs405WithTheAllowedOnes(String method) {
        assertThatThrownBy(() -> ProxyMethods.require(HttpMethod.valueOf(method), new HttpHeaders()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
                    assertThat(e.allowedMethods()).containsExactlyElementsOf(ProxyMethods.FORWARDED);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"X-HTTP-Method-Override", "x-http-method-override", "X-Method-Override", "X-HTTP-Method", "x-http-method"})
    void aMethodOverrideHeaderIs400(String header) {
        HttpHeaders headers = new HttpHeaders();
        headers.add(header, "DELETE");
        assertThatThrownBy(() -> ProxyMethods.require(HttpMethod.POST, headers))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).startsWith("The proxy does not accept the X-");
                });
    }

    static Stream<Arguments> formsNamingAMethod() {
        String part = "--b\r\nContent-Disposition: form-data; %s\r\n\r\ndelete\r\n--b--\r\n";
        return Stream.of(
                Arguments.of("application/x-www-form-urlencoded", "title=x&_method=DELETE"),
                Arguments.of("application/x-www-form-urlencoded; charset=UTF-8", "_METHOD=delete"),
                Arguments.of("application/x-www-form-urlencoded", "a=1&%5Fmethod=put"),
                Arguments.of("multipart/form-data; boundary=b", part.formatted("name=\"_method\"")),
                Arguments.of("multipart/form-data; boundary=b", part.formatted("NAME=_Method")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("formsNamingAMethod")
    void aMethodOverrideFormFieldIs400(String contentType, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CONTENT_TYPE, contentType);
        assertThatThrownBy(() -> ProxyRequestBody.refuseMethodField(headers, body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST));
    }

    @Test
    void otherBodiesAreNotLookedInto() {
        HttpHeaders json = new HttpHeaders();
        json.set(HttpHeaders.CONTENT_TYPE, "application/json");
        ProxyRequestBody.refuseMethodField(json, "{\"_method\":\"DELETE\"}".getBytes(StandardCharsets.UTF_8));
        HttpHeaders form = new HttpHeaders();
        form.set(HttpHeaders.CONTENT_TYPE, "application/x-www-form-urlencoded");
        ProxyRequestBody.refuseMethodField(form, "method=x&a=_method&_methods=1".getBytes(StandardCharsets.UTF_8));
        HttpHeaders garbled = new HttpHeaders();
        garbled.set(HttpHeaders.CONTENT_TYPE, "not a type");
        ProxyRequestBody.refuseMethodField(garbled, "_method=DELETE".getBytes(StandardCharsets.UTF_8));
    }
}
