/**
 * The ingress's API for other modules that run its rules without HTTP (the launcher's command line): what
 * they may use of the ingress besides {@code IngressApplication}, the command gateway and the audit export.
 * The packages behind it ({@code web}, {@code admin}, ...) are the ingress's own; the architecture test
 * refuses imports of them from other modules.
 */
package io.agentgateway.adminapi.api;
