package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;

/**
 * A question to the decision stream that changes nothing and records nothing, asked by an entry point
 * before it acts on something other than a decided call: may this API key act (in log order with its
 * issue and revocation), is the tool connection the entry point holds still the current one, and is
 * this approval open.
 *
 * <p>The actor is the caller's API key (authorized for {@code requiredScope}; null: any scope of the
 * workspace), or the gateway itself (a system actor: no key to check, for the webhook verifier). A user
 * actor is refused. Answers: {@code unauthorized} for a key that may not act; {@code stale} with the
 * current connection when {@code tool} is set and {@code connectionVersion} is not the current one's
 * (a stale answer still means the key may act); otherwise {@code ok}, with {@code Reply.approval} when
 * {@code approvalId} names an approval the workspace still holds (open: pending, approved, executing).
 *
 * @param requiredScope      the scope the key needs, or null for any
 * @param tool               the tool whose connection the entry point holds, or null
 * @param connectionVersion  the version of that connection it holds ({@code ToolConnection.NONE}: none); with {@code tool}
 * @param approvalId         an approval to look up, or null
 */
public record CheckAccess(Scope requiredScope, Tool tool, Long connectionVersion, String approvalId) implements Command {}
