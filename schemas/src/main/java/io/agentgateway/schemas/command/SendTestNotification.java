package io.agentgateway.schemas.command;

/**
 * Ask for a {@code test} notification to the workspace's notification settings as they are now: the same recipients
 * (admins and owners with an email, unless email is off) and chat webhook as a real alert, through the notifier. Changes
 * nothing; admins and owners only.
 */
public record SendTestNotification() implements Command {}
