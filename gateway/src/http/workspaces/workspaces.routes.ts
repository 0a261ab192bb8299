/**
 * The workspace routes the gateway serves itself rather than proxies,
 * because it holds part of the answer: the members with their emails and
 * names (accounts are the gateway's), and invitations (the links are its).
 * Each calls collections-service for the caller, which decides who may.
 */
import { Router, type Request, type Response } from 'express';
import { contextOf, jsonBody, methodNotAllowed, validate, type Principal } from '@skills/common';
import type { AccountRepository } from '../../domain/accounts/account';
import type { AuthenticateCaller } from '../keys/caller-auth';
import { auditContextOf } from '../audit/audit-context';
import { sendConditional } from '../proxy/upstream-proxy';
import type { SessionGate } from '../sessions/session-gate';
import { requireSession } from '../sessions/sessions.routes';
import type { Answer, Caller, CollectionsCalls } from '../../domain/workspaces/collections-service';
import type { WorkspaceInvitations } from '../../domain/workspaces/workspace-invitations';
import { invitationSchema, tokenSchema } from './workspace.schemas';

export interface WorkspaceRoutesDeps {
  authenticateCaller: AuthenticateCaller;
  gate: SessionGate;
  calls: CollectionsCalls;
  invitations: WorkspaceInvitations;
  accounts: AccountRepository;
}

interface Member {
  accountId: string;
  role: string;
  joinedAt: string;
}

const callerOf = (req: Request, res: Response, principal: Principal): Caller => ({
  principal,
  requestId: contextOf(res).requestId,
  language: req.get('accept-language'),
});

/** The service's refusal, as it answered it. */
function relay(res: Response, answer: Answer): void {
  if (answer.body === undefined) res.status(answer.status).end();
  else res.status(answer.status).json(answer.body);
}

/** A public read: JSON with a strong ETag, revalidated on every use like the collection reads. */
function sendRead(req: Request, res: Response, body: unknown): void {
  res.type('application/json');
  sendConditional(req, res, Buffer.from(JSON.stringify(body)), 'private, no-cache');
}

/** A console session's own principal; an API key gets 403, no session 401. */
async function sessionCaller(gate: SessionGate, req: Request, res: Response): Promise<Caller> {
  const { account, session } = await requireSession(gate, req);
  return callerOf(req, res, {
    kind: 'account',
    accountId: account.id,
    plan: account.plan,
    keyId: `session:${session.id}`,
  });
}

const actorOf = (caller: Caller) =>
  caller.principal.kind === 'account'
    ? { kind: 'account' as const, accountId: caller.principal.accountId }
    : { kind: 'admin' as const };

export function workspaceRoutes(deps: WorkspaceRoutesDeps): Router {
  const router = Router();
  const body = jsonBody();
  const caller = async (req: Request, res: Response, scope: 'collections:read' | 'workspaces:manage') =>
    callerOf(req, res, await deps.authenticateCaller(req, res, scope));
  const param = (req: Request, name: string) => String(req.params[name] ?? '');

  router
    .route('/api/v1/workspaces/:id/members')
    .get(async (req, res) => {
      const listed = await deps.calls.call<{ members: Member[]; pagination: unknown }>(
        await caller(req, res, 'collections:read'),
        'GET',
        req.originalUrl,
      );
      if (!listed.ok) return relay(res, listed.answer);
      const accounts = new Map(
        (await deps.accounts.findByIds(listed.value.members.map((m) => m.accountId))).map((a) => [a.id, a]),
      );
      const members = listed.value.members.map((m) => {
        const account = accounts.get(m.accountId);
        return {
          accountId: m.accountId,
          email: account?.email ?? null,
          name: account?.name ?? null,
          role: m.role,
          joinedAt: m.joinedAt,
        };
      });
      sendRead(req, res, { data: { members, pagination: listed.value.pagination } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/v1/workspaces/:id/invitations')
    .get(async (req, res) => {
      const listed = await deps.calls.call(await caller(req, res, 'collections:read'), 'GET', req.originalUrl);
      if (!listed.ok) return relay(res, listed.answer);
      sendRead(req, res, { data: listed.value });
    })
    .post(body, async (req, res) => {
      const who = await caller(req, res, 'workspaces:manage');
      const input = validate(invitationSchema, req.body ?? {});
      const created = await deps.invitations.create(
        who,
        auditContextOf(req, res, actorOf(who)),
        param(req, 'id'),
        input,
      );
      if (!created.ok) return relay(res, created.answer);
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: { invitation: created.value } });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/v1/workspaces/:id/invitations/:invitationId')
    .delete(async (req, res) => {
      const who = await caller(req, res, 'workspaces:manage');
      const revoked = await deps.invitations.revoke(
        who,
        auditContextOf(req, res, actorOf(who)),
        param(req, 'id'),
        param(req, 'invitationId'),
      );
      if (!revoked.ok) return relay(res, revoked.answer);
      res.json({ data: revoked.value });
    })
    .all(methodNotAllowed(['DELETE']));

  router
    .route('/api/v1/invitations/preview')
    .post(body, async (req, res) => {
      const who = await sessionCaller(deps.gate, req, res);
      const { token } = validate(tokenSchema, req.body ?? {});
      const preview = await deps.invitations.preview(who, token);
      if (!preview.ok) return relay(res, preview.answer);
      res.json({ data: preview.value });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/v1/invitations/accept')
    .post(body, async (req, res) => {
      const who = await sessionCaller(deps.gate, req, res);
      const { token } = validate(tokenSchema, req.body ?? {});
      const accepted = await deps.invitations.accept(who, auditContextOf(req, res, actorOf(who)), token);
      if (!accepted.ok) return relay(res, accepted.answer);
      res.json({ data: accepted.value });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
