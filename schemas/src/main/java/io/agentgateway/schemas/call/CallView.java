package io.agentgateway.schemas.call;

/**
 * What a held call will do, as its reviewers are shown it: made by the entry point from the exact request it
 * seals (so it shows what will run), bounded and with secrets and credentials redacted, because it travels
 * in clear (the approval event, the read model, the approvals API, notifications). The sealed call itself
 * stays sealed; the approval's {@code callDigest} binds both to the call that will run.
 *
 * <p>Every part is optional: an HTTP request shows {@code method}, {@code path} and {@code query}; a GraphQL
 * request also its {@code graphqlOperation}, {@code graphqlDocument} and {@code graphqlVariables} (instead of a
 * body excerpt); an MCP {@code tools/call} its {@code mcpTool} and {@code mcpArguments}; any other body a
 * {@code bodyExcerpt}, and a code host contents write its decoded {@code fileContent}.
 *
 * @param graphqlVariables compact JSON of the variables, redacted, cut to the bound
 * @param mcpArguments     compact JSON of the arguments as the upstream will get them, redacted, cut to the bound
 * @param bodyExcerpt      the body (compact JSON when it is JSON, else its text), redacted, cut to the bound;
 *                         for a body that is not text, a note of its media type and size
 * @param fileContent      the decoded {@code content} of a code host file write (base64 in the body), redacted, cut
 * @param bodyBytes        the size of the whole body in bytes, null for none
 * @param truncated        some part was cut to the bound
 * @param redacted         some value was replaced because it looked like a secret or a credential
 */
public record CallView(
        String method,
        String path,
        String query,
        String graphqlOperation,
        String graphqlDocument,
        String graphqlVariables,
        String mcpTool,
        String mcpArguments,
        String bodyExcerpt,
        String fileContent,
        Integer bodyBytes,
        boolean truncated,
        boolean redacted) {}
