package io.agentgateway.projector.readmodel;

import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/** One execution of a statement with its arguments (typed, so no null needs a metadata round trip). */
public record Write(SqlStatement statement, SqlParameterSource params) {}
