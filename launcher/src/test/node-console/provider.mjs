// A real OpenID provider for the console's browser suite: oidc-provider (OpenID Certified), with its development
// login pages (any login name signs in as that account; the password is not checked) and one confidential client,
// the gateway's console. Usage: node provider.mjs <port> <client id> <client secret> <redirect uri>
// It prints "ready <issuer>" once it listens. Accounts: the login name is the subject; email <name>@example.test,
// verified. Tokens: RS256 ID tokens; access tokens for the resource "urn:agent-gateway:admin-api" are JWTs.
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const RESOURCE = 'urn:agent-gateway:admin-api';

const provider = new Provider(issuer, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: `${id}@example.test`, email_verified: true };
      },
    };
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      getResourceServerInfo: () => ({ scope: 'openid email', audience: RESOURCE, accessTokenFormat: 'jwt' }),
      useGrantedResource: () => true,
    },
  },
  loadExistingGrant: async (ctx) => {
    // the console's client is first-party: consent is implied (the dev consent page would ask every time)
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) {
      return ctx.oidc.provider.Grant.find(grantId);
    }
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    grant.addOIDCClaims(['email', 'email_verified']);
    grant.addResourceScope(RESOURCE, 'openid email');
    await grant.save();
    return grant;
  },
  ttl: { AccessToken: 600, IdToken: 600, AuthorizationCode: 60, Session: 3600, Interaction: 600, Grant: 3600 },
});
provider.proxy = false;
for (const event of ['server_error', 'authorization.error', 'grant.error']) {
  provider.on(event, (ctx, err) => console.error(`${event}: ${err && err.stack ? err.stack : err}`));
}

provider.listen(Number(port), '127.0.0.1', () => {
  console.log(`ready ${issuer}`);
});
