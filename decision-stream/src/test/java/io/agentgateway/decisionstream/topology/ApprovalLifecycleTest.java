package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ExecutionOutcome;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.HeldHttpRequest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.secret.SealedSecret;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.secret.SecretBox;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The approval state machine of DESIGN.md under TopologyTestDriver: every transition, and every
 * refusal with its reply status, and that ended approvals leave the workspace state.
 */
class ApprovalLifecycleTest extends OneWorkspaceTopologyTest {
    private static final Duration TTL = Duration.ofMinutes(30);
    private static final HeldCallSeal SEAL =
            new HeldCallSeal(SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(new byte[32])));
    private static final HeldHttpRequest HELD = new HeldHttpRequest("PUT", "/repos/acme/api/pulls/7/merge", null,
            Map.of("content-type", List.of("application/json")), Base64.getEncoder().encodeToString("{}".getBytes()));
    private static final Actor EXECUTOR = Actor.system("approval-executor");
    private static final JsonNode RESULT = GatewayJson.MAPPER.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}");


    @BeforeEach
    void start() {
        workspace.admin(new SetWorkspaceDefaults(null, TTL)).ok();
    }

    private WorkspaceState state() {
        return driver.workspaceStates().get(workspace.id);
    }

    /** An evaluate-action approval: the caller makes the call itself, the gateway runs nothing. */
    private ApprovalRequested openEvaluateApproval() {
        return workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).event(1, ApprovalRequested.class);
    }

    /** A proxied call held for approval, as the proxy will send it. */
    private ApprovalRequested openHeldCallApproval() {
        SealedHeldCall sealed = SEAL.seal(Tool.INTERNAL_API, "deploy.run", HELD);
        EvaluateAction evaluate = new EvaluateAction(Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-7", null,
                null, null, null, null, io.agentgateway.schemas.ActionSource.PROXY, io.agentgateway.schemas.Scope.EVALUATE,
                false, sealed);
        return workspace.evaluate(evaluate).event(1, ApprovalRequested.class);
    }

    private Emitted review(String approvalId, ReviewVerdict verdict, String reason) {
        return workspace.admin(new ReviewApproval(approvalId, verdict, reason));
    }

    private Emitted claim(String approvalId, String executorId) {
        return workspace.as(EXECUTOR, new ClaimApprovedCall(approvalId, executorId));
    }

    private Emitted record(String approvalId, String executorId, ExecutionOutcome outcome) {
        return workspace.as(EXECUTOR, new RecordCallExecution(approvalId, executorId, outcome, RESULT));
    }

    @Nested
    class Review {

        @Test
        void approving_an_evaluate_action_approval_ends_it_as_approved_and_leaves_nothing_to_run() {
            ApprovalRequested requested = openEvaluateApproval();
            CommandEnvelope envelope = workspace.envelope(workspace.owner,
                    new ReviewApproval(requested.approvalId(), ReviewVerdict.APPROVE, "ship it"));
            Emitted emitted = driver.send(envelope);

            emitted.ok();
            ApprovalReviewed reviewed = emitted.only(ApprovalReviewed.class);
            assertThat(reviewed).isEqualTo(new ApprovalReviewed(requested.approvalId(), ReviewVerdict.APPROVE,
                    workspace.owner.userId(), "ship it", envelope.acceptedAt(), Tool.DOCS, "page.publish",
                    requested.callDigest(), null));
            assertThat(emitted.events().get(0).eventId()).isEqualTo(DerivedIds.eventId(envelope.commandId(), 0));
            assertThat(driver.approvals(workspace.id)).as("nothing can happen to it any more").isEmpty();
        }

        @Test
        void rejecting_ends_it_and_a_second_review_finds_nothing_to_review() {
            String approvalId = openEvaluateApproval().approvalId();
            ApprovalReviewed reviewed = review(approvalId, ReviewVerdict.REJECT, "not on a Friday").only(ApprovalReviewed.class);
            assertThat(reviewed.verdict()).isEqualTo(ReviewVerdict.REJECT);
            assertThat(reviewed.reason()).isEqualTo("not on a Friday");
            assertThat(reviewed.heldCallKind()).isNull();
            assertThat(driver.approvals(workspace.id)).isEmpty();

            review(approvalId, ReviewVerdict.APPROVE, null).refused(ReplyStatus.NOT_FOUND, "Approval request not found");
        }

        @Test
        void an_approved_held_call_stays_until_it_ran_and_cannot_be_reviewed_again() {
            ApprovalRequested requested = openHeldCallApproval();
            ApprovalReviewed reviewed = review(requested.approvalId(), ReviewVerdict.APPROVE, null).only(ApprovalReviewed.class);
            assertThat(reviewed.heldCallKind()).isEqualTo(HeldCallKind.HTTP_REQUEST);
            assertThat(reviewed.callDigest()).isEqualTo(requested.heldCall().digest());
            assertThat(reviewed.reason()).isNull();
            assertThat(state().approval(requested.approvalId())).get()
                    .extracting(PendingApproval::status).isEqualTo(ApprovalStatus.APPROVED);

            review(requested.approvalId(), ReviewVerdict.REJECT, "changed my mind")
                    .refused(ReplyStatus.CONFLICT, "Approval request is approved, not pending");
            review(requested.approvalId(), ReviewVerdict.APPROVE, null)
                    .refused(ReplyStatus.CONFLICT, "Approval request is approved, not pending");
        }

        @Test
        void a_rejected_held_call_never_becomes_claimable() {
            String approvalId = openHeldCallApproval().approvalId();
            ApprovalReviewed reviewed = review(approvalId, ReviewVerdict.REJECT, "no").only(ApprovalReviewed.class);
            assertThat(reviewed.heldCallKind()).as("nothing to run after a rejection").isNull();
            claim(approvalId, "executor-1").refused(ReplyStatus.NOT_FOUND, "Approval request not found");
        }

        @Test
        void a_review_at_the_expiry_instant_itself_is_still_in_time() {
            ApprovalRequested requested = openEvaluateApproval();
            workspace.advance(Duration.between(workspace.now(), requested.expiresAt()));
            assertThat(workspace.now()).isEqualTo(requested.expiresAt());
            review(requested.approvalId(), ReviewVerdict.APPROVE, null).only(ApprovalReviewed.class);
        }

        @Test
        void a_review_after_the_expiry_finds_it_expired_by_the_sweep_and_is_refused() {
            ApprovalRequested requested = openEvaluateApproval();
            workspace.advance(Duration.between(workspace.now(), requested.expiresAt()).plusMillis(1));

            // the review depends on what is due, so the sweep runs before it whether or not the punctuator had:
            // the answer does not depend on how records were batched
            Emitted late = review(requested.approvalId(), ReviewVerdict.APPROVE, null);
            assertThat(late.reply().status()).isEqualTo(ReplyStatus.NOT_FOUND);
            assertThat(late.reply().error()).isEqualTo("Approval request not found");
            assertThat(late.only(ApprovalExpired.class)).isEqualTo(new ApprovalExpired(requested.approvalId(), requested.expiresAt()));
            assertThat(driver.approvals(workspace.id)).isEmpty();

            Emitted again = review(requested.approvalId(), ReviewVerdict.REJECT, null);
            again.refused(ReplyStatus.NOT_FOUND, "Approval request not found");
            assertThat(again.events()).as("expired once").isEmpty();
        }

        @Test
        void only_a_reviewer_admin_or_owner_may_review() {
            String approvalId = openEvaluateApproval().approvalId();
            Actor member = workspace.member("member-1", Role.MEMBER);
            workspace.as(member, new ReviewApproval(approvalId, ReviewVerdict.APPROVE, null))
                    .refused(ReplyStatus.FORBIDDEN, "Reviewer, admin or owner role required");
            workspace.as(workspace.agent(workspace.evaluateKeyHash()), new ReviewApproval(approvalId, ReviewVerdict.APPROVE, null))
                    .refused(ReplyStatus.FORBIDDEN, "Reviewer, admin or owner role required");
            workspace.as(EXECUTOR, new ReviewApproval(approvalId, ReviewVerdict.APPROVE, null))
                    .refused(ReplyStatus.FORBIDDEN, "Reviewer, admin or owner role required");

            Actor admin = workspace.member("admin-1", Role.ADMIN);
            assertThat(workspace.as(admin, new ReviewApproval(approvalId, ReviewVerdict.APPROVE, null))
                    .only(ApprovalReviewed.class).reviewedBy()).isEqualTo("admin-1");
        }

        @Test
        void malformed_reviews_are_invalid_and_unknown_ids_not_found() {
            String approvalId = openEvaluateApproval().approvalId();
            review("not-a-uuid", ReviewVerdict.APPROVE, null).refused(ReplyStatus.INVALID, "approvalId must be a lower-case UUID");
            review(approvalId, null, null).refused(ReplyStatus.INVALID, "verdict must be approve or reject");
            review(approvalId, ReviewVerdict.APPROVE, "x".repeat(2001))
                    .refused(ReplyStatus.INVALID, "reason must be at most 2000 characters");
            review(java.util.UUID.randomUUID().toString(), ReviewVerdict.APPROVE, null)
                    .refused(ReplyStatus.NOT_FOUND, "Approval request not found");
            assertThat(state().approval(approvalId)).get().extracting(PendingApproval::status).isEqualTo(ApprovalStatus.PENDING);
        }
    }

    @Nested
    class KillSwitchAtTheClaim {

        @Test
        void a_claim_while_the_kill_switch_is_on_cancels_the_approval_and_nothing_ever_runs_it() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, "go").ok();
            workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();

            CommandEnvelope claim = workspace.envelope(EXECUTOR, new ClaimApprovedCall(approvalId, "executor-1"));
            Emitted refused = driver.send(claim);
            assertThat(refused.reply().status()).isEqualTo(ReplyStatus.CONFLICT);
            assertThat(refused.reply().error()).isEqualTo(
                    "Approved call cancelled: the workspace kill switch was enabled when the approved call was to run");
            assertThat(refused.only(ApprovedCallCancelled.class)).isEqualTo(new ApprovedCallCancelled(approvalId,
                    "the workspace kill switch was enabled when the approved call was to run", claim.acceptedAt()));
            assertThat(state().approval(approvalId)).as("ended").isEmpty();

            // lifting the switch brings nothing back: the agent asks again
            workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).ok();
            claim(approvalId, "executor-2").refused(ReplyStatus.NOT_FOUND, "Approval request not found");
        }

        @Test
        void a_claim_while_its_tool_is_paused_is_cancelled_but_another_tools_pause_changes_nothing() {
            String paused = openHeldCallApproval().approvalId();
            review(paused, ReviewVerdict.APPROVE, null).ok();
            workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.INTERNAL_API)).ok();
            assertThat(claim(paused, "executor-1").only(ApprovedCallCancelled.class).reason())
                    .isEqualTo("the tool internal_api was paused when the approved call was to run");

            workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, Tool.INTERNAL_API)).ok();
            workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CODE_HOST)).ok();
            String other = openHeldCallApproval().approvalId();
            review(other, ReviewVerdict.APPROVE, null).ok();
            assertThat(claim(other, "executor-1").ok().status()).isEqualTo(ReplyStatus.OK);
        }

        @Test
        void a_granted_claim_carries_the_connection_the_call_runs_with() {
            Emitted connected = workspace.admin(new UpsertToolConnection(Tool.INTERNAL_API, ToolConnectionConfig.none(), null, null,
                    null, "https://internal.example/api", SecretUpdate.set(SealedSecret.of("v1.dG9rZW4")), SecretUpdate.keep()));
            ToolConnection connection = connected.only(ToolConnectionUpserted.class).connection();
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();
            assertThat(claim(approvalId, "executor-1").ok().connection()).isEqualTo(connection);

            String none = openHeldCallApproval().approvalId();
            review(none, ReviewVerdict.APPROVE, null).ok();
            workspace.admin(new DeleteToolConnection(Tool.INTERNAL_API)).ok();
            assertThat(claim(none, "executor-1").ok().connection()).as("no connection now").isNull();
        }
    }

    @Nested
    class ClaimAndRecord {

        @Test
        void the_first_claim_wins_and_every_other_claim_is_refused() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();

            CommandEnvelope first = workspace.envelope(EXECUTOR, new ClaimApprovedCall(approvalId, "executor-1"));
            Emitted granted = driver.send(first);
            granted.ok();
            assertThat(granted.only(ApprovedCallClaimed.class))
                    .isEqualTo(new ApprovedCallClaimed(approvalId, "executor-1", first.acceptedAt()));
            assertThat(state().approval(approvalId)).get().satisfies(a -> {
                assertThat(a.status()).isEqualTo(ApprovalStatus.EXECUTING);
                assertThat(a.claimedBy()).isEqualTo("executor-1");
            });

            claim(approvalId, "executor-2").refused(ReplyStatus.CONFLICT, "Approved call was already claimed");
            // the same executor with a new claim command (it saw the review event again)
            claim(approvalId, "executor-1").refused(ReplyStatus.CONFLICT, "Approved call was already claimed");
        }

        @Test
        void two_executors_racing_get_exactly_one_grant() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();
            // both were sent before either was answered: the log orders them, whatever their acceptedAt
            CommandEnvelope a = workspace.envelope(EXECUTOR, new ClaimApprovedCall(approvalId, "executor-a"));
            CommandEnvelope b = workspace.envelope(EXECUTOR, new ClaimApprovedCall(approvalId, "executor-b"));

            List<Emitted> answers = List.of(driver.send(b), driver.send(a));
            assertThat(answers).filteredOn(e -> e.reply().status() == ReplyStatus.OK).hasSize(1)
                    .first().satisfies(e -> assertThat(e.only(ApprovedCallClaimed.class).executorId()).isEqualTo("executor-b"));
            assertThat(answers).filteredOn(e -> e.reply().status() == ReplyStatus.CONFLICT).hasSize(1)
                    .first().satisfies(Emitted::assertNothingButTheReply);
        }

        @Test
        void a_redelivered_claim_command_gets_its_original_answer_and_changes_nothing() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();
            CommandEnvelope claim = workspace.envelope(EXECUTOR, new ClaimApprovedCall(approvalId, "executor-1"));
            Emitted first = driver.send(claim);
            WorkspaceState after = state();

            Emitted again = driver.send(claim);
            assertThat(again.events()).isEqualTo(first.events());
            assertThat(again.reply().status()).isEqualTo(ReplyStatus.OK);
            assertThat(state()).isEqualTo(after);
        }

        @Test
        void only_the_claimer_records_and_the_approval_then_ends() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();
            record(approvalId, "executor-1", ExecutionOutcome.EXECUTED)
                    .refused(ReplyStatus.CONFLICT, "Approval request is approved, not executing");
            claim(approvalId, "executor-1").ok();

            record(approvalId, "executor-2", ExecutionOutcome.EXECUTED)
                    .refused(ReplyStatus.CONFLICT, "Approved call was claimed by another executor");
            CommandEnvelope recorded = workspace.envelope(EXECUTOR,
                    new RecordCallExecution(approvalId, "executor-1", ExecutionOutcome.EXECUTED, RESULT));
            Emitted executed = driver.send(recorded);
            executed.ok();
            assertThat(executed.only(ApprovedCallExecuted.class))
                    .isEqualTo(new ApprovedCallExecuted(approvalId, "executor-1", RESULT, recorded.acceptedAt()));
            assertThat(driver.approvals(workspace.id)).isEmpty();

            record(approvalId, "executor-1", ExecutionOutcome.FAILED).refused(ReplyStatus.NOT_FOUND, "Approval request not found");
            claim(approvalId, "executor-3").refused(ReplyStatus.NOT_FOUND, "Approval request not found");
        }

        @Test
        void a_failed_run_ends_the_approval_as_failed() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();
            claim(approvalId, "executor-1").ok();
            ApprovedCallFailed failed = record(approvalId, "executor-1", ExecutionOutcome.FAILED).only(ApprovedCallFailed.class);
            assertThat(failed.result()).isEqualTo(RESULT);
            assertThat(driver.approvals(workspace.id)).isEmpty();
        }

        @Test
        void pending_and_unknown_approvals_cannot_be_claimed() {
            String approvalId = openHeldCallApproval().approvalId();
            claim(approvalId, "executor-1").refused(ReplyStatus.CONFLICT, "Approval request is pending, not approved");
            claim(java.util.UUID.randomUUID().toString(), "executor-1")
                    .refused(ReplyStatus.NOT_FOUND, "Approval request not found");

            String withoutCall = openEvaluateApproval().approvalId();
            review(withoutCall, ReviewVerdict.APPROVE, null).ok();
            claim(withoutCall, "executor-1").refused(ReplyStatus.NOT_FOUND, "Approval request not found");
        }

        @Test
        void only_the_gateway_itself_may_claim_or_record() {
            String approvalId = openHeldCallApproval().approvalId();
            review(approvalId, ReviewVerdict.APPROVE, null).ok();
            String refusal = "Only the gateway itself may run approved calls";
            workspace.admin(new ClaimApprovedCall(approvalId, "executor-1")).refused(ReplyStatus.FORBIDDEN, refusal);
            workspace.as(workspace.agent(workspace.evaluateKeyHash()), new ClaimApprovedCall(approvalId, "executor-1"))
                    .refused(ReplyStatus.FORBIDDEN, refusal);
            claim(approvalId, "executor-1").ok();
            workspace.admin(new RecordCallExecution(approvalId, "executor-1", ExecutionOutcome.EXECUTED, RESULT))
                    .refused(ReplyStatus.FORBIDDEN, refusal);
        }

        @Test
        void malformed_claims_and_records_are_invalid() {
            String approvalId = openHeldCallApproval().approvalId();
            claim("x", "executor-1").refused(ReplyStatus.INVALID, "approvalId must be a lower-case UUID");
            claim(approvalId, " ").refused(ReplyStatus.INVALID, "executorId is required");
            workspace.as(EXECUTOR, new RecordCallExecution(approvalId, "executor-1", null, RESULT))
                    .refused(ReplyStatus.INVALID, "outcome must be executed or failed");
            workspace.as(EXECUTOR, new RecordCallExecution(approvalId, "executor-1", ExecutionOutcome.EXECUTED, null))
                    .refused(ReplyStatus.INVALID, "result is required");
        }
    }

    @Nested
    class HeldCallsAndExpiry {

        @Test
        void a_held_call_binds_the_approval_to_its_own_digest_and_travels_sealed() {
            ApprovalRequested requested = openHeldCallApproval();
            assertThat(requested.callDigest()).isEqualTo(HeldCallSeal.digest(Tool.INTERNAL_API, "deploy.run", HELD));
            assertThat(requested.heldCall().sealed()).startsWith("v1.").doesNotContain("repos");
            assertThat(SEAL.open(requested.heldCall(), Tool.INTERNAL_API, "deploy.run", requested.callDigest())).isEqualTo(HELD);
            assertThat(state().approval(requested.approvalId())).contains(PendingApproval.opened(requested.expiresAt(),
                    requested.callDigest(), Tool.INTERNAL_API, "deploy.run", HeldCallKind.HTTP_REQUEST,
                    null, requested.expiresAt().minus(TTL), workspace.evaluateKeyHash()));
        }

        @Test
        void a_malformed_held_call_is_refused() {
            EvaluateAction unsealed = new EvaluateAction(Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-7", null,
                    null, null, null, null, io.agentgateway.schemas.ActionSource.PROXY, io.agentgateway.schemas.Scope.EVALUATE,
                    false, new SealedHeldCall(HeldCallKind.HTTP_REQUEST, "{\"method\":\"PUT\"}", "a".repeat(64)));
            workspace.evaluate(unsealed).refused(ReplyStatus.INVALID,
                    "heldCall must name its kind, be sealed with SecretBox and carry its SHA-256 digest");
        }

        @Test
        void the_sweep_expires_pending_approvals_once_stream_time_passes_their_expiry() {
            ApprovalRequested old = openEvaluateApproval();
            ApprovalRequested recent = openEvaluateApproval();
            long version = state().workspaceVersion();
            workspace.advance(Duration.between(workspace.now(), old.expiresAt()).plusMillis(1));

            Emitted allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW);
            assertThat(allowed.events()).hasSize(2);
            EventEnvelope expiry = allowed.events().get(1);
            assertThat(expiry.event()).isEqualTo(new ApprovalExpired(old.approvalId(), old.expiresAt()));
            String expiryId = DerivedIds.approvalExpiryId(old.approvalId());
            assertThat(expiry.commandId()).as("the approval's own ids, whoever sweeps it").isEqualTo(expiryId);
            assertThat(expiry.eventId()).isEqualTo(DerivedIds.eventId(expiryId, 0));
            assertThat(expiry.occurredAt()).isEqualTo(old.expiresAt());
            assertThat(expiry.actor()).isEqualTo(Actor.system("decision-stream"));
            assertThat(expiry.workspaceVersion()).as("a sweep bumps no version").isEqualTo(version);
            assertThat(driver.approvals(workspace.id)).containsOnlyKeys(recent.approvalId());
            assertThat(state().openApprovalCount()).isEqualTo(1);
            assertThat(state().workspaceVersion()).isEqualTo(version);

            workspace.advance(Duration.ofHours(1));
            Emitted next = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW);
            assertThat(next.domainEvents().subList(1, 2)).containsExactly(new ApprovalExpired(recent.approvalId(), recent.expiresAt()));
            assertThat(state().openApprovalCount()).isZero();
            assertThat(driver.expiryIndex()).as("nothing left to sweep (the evaluate key never ends)").isEmpty();
        }

        @Test
        void an_approved_call_never_claimed_or_never_recorded_leaves_the_state_a_ttl_after_its_expiry() {
            ApprovalRequested unclaimed = openHeldCallApproval();
            review(unclaimed.approvalId(), ReviewVerdict.APPROVE, null).ok();
            ApprovalRequested crashed = openHeldCallApproval();
            review(crashed.approvalId(), ReviewVerdict.APPROVE, null).ok();
            claim(crashed.approvalId(), "executor-1").ok();

            workspace.advance(Duration.between(workspace.now(), unclaimed.expiresAt()).plus(TTL));
            ApprovalRequested later = openEvaluateApproval();
            assertThat(driver.approvals(workspace.id)).as("not yet: still within one TTL after expiry")
                    .containsKeys(unclaimed.approvalId(), crashed.approvalId());

            workspace.advance(Duration.ofMinutes(1));
            Emitted opening = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH);
            assertThat(opening.domainEvents()).as("dropped silently: the read model keeps approved / executing")
                    .noneMatch(e -> e instanceof ApprovalExpired expired
                            && (expired.approvalId().equals(unclaimed.approvalId()) || expired.approvalId().equals(crashed.approvalId())));
            assertThat(driver.approvals(workspace.id)).doesNotContainKeys(unclaimed.approvalId(), crashed.approvalId())
                    .containsKey(later.approvalId());
        }
    }
}
