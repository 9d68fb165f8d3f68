import {
  aliasSchema,
  canChangeTeamField,
  canCreateTeam,
  displayName,
  teamDescriptionSchema,
  teamModeSchema,
  teamNameSchema,
  type DuplicateKind,
  type Team,
  type TeamPatchField,
  type TeamListItem,
} from '@raccolta/contracts';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { fieldError } from '../errors/field-errors.js';
import { nicknameKey } from '../members/nickname.js';
import type { UserRow } from '../users/users.repository.js';
import { authorize, requireAccess } from '../access/access.js';
import { hasSecondFactor } from '../auth/second-factor/factors.js';
import {
  applyPatch,
  defaultRefusals,
  patchField,
  type PatchFields,
  type PatchOperation,
} from '../http/json-patch.js';
import { can } from '../access/rules.js';
import type { TeamRow } from '../db/rows.js';
import { teamCodeOf, unusedTeamCode } from './team-code.js';
import {
  countTeamAliases,
  findTeamById,
  insertAlias,
  insertTeamWithOwner,
  isAliasTaken,
  listTeamsOfUser,
  lockTeamRow,
  teamAliases,
  teamExtras,
  updateTeam,
} from './teams.repository.js';
import { presentTeam } from './teams.presenter.js';
import { teamNameKey } from './team-name.js';

async function present(db: Db, team: TeamRow): Promise<Team> {
  const { aliases, counts } = await teamExtras(db, [team.id]);
  return presentTeam(team, {
    aliases: aliases.get(team.id) ?? [],
    membersCount: counts.get(team.id) ?? 0,
  });
}

export async function listTeams(
  ctx: AppContext,
  actor: UserRow,
  query: { search?: string | undefined; lastKey?: string | undefined; limit?: number | undefined },
): Promise<{ teams: TeamListItem[]; pagination: { lastKey: string | null } }> {
  const page = await listTeamsOfUser(ctx.db, actor.id, query);
  const aliases = await teamAliases(
    ctx.db,
    page.items.map((t) => t.id),
  );
  return {
    // The caller's role is set on the presented team, not spread into a copy of it: copying 20
    // teams cost as much as presenting them.
    teams: page.items.map((t) => {
      const item: TeamListItem = presentTeam(t, {
        aliases: aliases.get(t.id) ?? [],
        membersCount: Number(t.members_count ?? 0),
        memberRole: t.member_role,
      });
      return item;
    }),
    pagination: { lastKey: page.lastKey },
  };
}

export async function getTeam(ctx: AppContext, actor: UserRow, teamRef: string): Promise<Team> {
  // Allowed without the team's required second factor, so the web app can ask for one.
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.readTeam, {
    secondFactorExempt: true,
  });
  return present(ctx.db, access.team);
}

export async function createTeam(
  ctx: AppContext,
  actor: UserRow,
  input: {
    name: string;
    description?: string | undefined;
    nickname?: string | undefined;
    mode: TeamRow['mode'];
  },
): Promise<{ teamId: string }> {
  authorize(canCreateTeam(actor.scope));
  const now = ctx.clock();
  const teamId = newId();
  // Left blank, the owner's name in the team is their preferred name, as the form says; an account
  // without one (internal, or made by an identity provider) falls back to the display name.
  const nickname =
    input.nickname ??
    (actor.nickname?.trim() || undefined) ??
    displayName({
      firstName: actor.first_name,
      lastName: actor.last_name,
      nickname: actor.nickname,
      email: actor.email,
      username: actor.username,
    });
  await ctx.db.transaction().execute(async (trx) => {
    await insertTeamWithOwner(
      trx,
      {
        id: teamId,
        name: input.name,
        name_key: teamNameKey(input.name),
        description: input.description ?? null,
        mode: input.mode,
        owner_id: actor.id,
        plan: 'free',
        star_alias: null,
        logo_url: null,
        code: await unusedTeamCode(trx),
        created_at: now,
        created_by: actor.id,
        updated_at: now,
        updated_by: actor.id,
      },
      {
        team_id: teamId,
        user_id: actor.id,
        role: 'owner',
        status: 'active',
        type: actor.kind === 'internal' ? 'internal' : 'standard',
        nickname,
        nickname_key: nicknameKey(nickname),
        email: actor.email,
        created_at: now,
        created_by: actor.id,
        joined_at: now,
        invite_expires_at: null,
        updated_at: now,
      },
    );
  });
  return { teamId };
}

function aliasTaken(): AppError {
  return new AppError('alreadyExists', {
    message: 'This alias is taken',
    data: { duplicate: 'alias' satisfies DuplicateKind },
  });
}

export async function createAlias(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  input: { alias: string; star: boolean },
): Promise<{ alias: string }> {
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.addTeamAlias);
  const { team } = access;
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    await lockTeamRow(trx, ctx.config.database.kind, team.id);
    // An alias spelling another team's code would make that reference mean two teams.
    if (await isAliasTaken(trx, input.alias, teamCodeOf(input.alias))) throw aliasTaken();
    if ((await countTeamAliases(trx, team.id)) >= ctx.config.teams.aliasLimits[team.plan])
      throw new AppError('quotaExceededAliases');
    // Another team may take the alias at this moment; its insert wins, this one is a duplicate.
    const row = { alias: input.alias, team_id: team.id, created_at: now, created_by: actor.id };
    if (!(await insertAlias(trx, row))) throw aliasTaken();
    if (input.star) {
      await updateTeam(trx, team.id, {
        star_alias: input.alias,
        updated_at: now,
        updated_by: actor.id,
      });
    }
  });
  return { alias: input.alias };
}

interface TeamState {
  name: string;
  description: string | null;
  mode: TeamRow['mode'];
  starAlias: string | null;
  stripLocation: boolean;
  requireSecondFactor: boolean;
}

function parseValue<T>(schema: z.ZodType<T>, value: unknown, index: number): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => issue.message);
    const own = fieldError(messages);
    if (own) throw new AppError(own.code, { message: `Operation ${index}: ${own.message}` });
    throw defaultRefusals.invalid(index, messages[0] ?? 'invalid value');
  }
  return parsed.data;
}

/**
 * RFC 6902 (http/json-patch.ts) on the fields the caller's role may change (canChangeTeamField in
 * contracts). Every operation is checked before any is applied: one refused operation refuses the
 * whole list (400), and nothing changes.
 */
export async function patchTeam(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  ops: PatchOperation[],
): Promise<Team> {
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.updateTeam);
  const { team, role } = access;
  const aliases = (await teamExtras(ctx.db, [team.id])).aliases.get(team.id) ?? [];
  const current: TeamState = {
    name: team.name,
    description: team.description,
    mode: team.mode,
    starAlias: team.star_alias,
    stripLocation: team.strip_location === 1,
    requireSecondFactor: team.require_second_factor === 1,
  };
  const rule = (field: TeamPatchField) => () => canChangeTeamField(role, field);
  const fields: PatchFields<TeamState> = {
    '/name': patchField<TeamState, string>({
      get: (s) => s.name,
      set: (s, name) => ({ ...s, name }),
      read: (value, index) => parseValue(teamNameSchema, value, index),
      allowed: rule('name'),
    }),
    '/description': patchField<TeamState, string | null>({
      get: (s) => s.description,
      set: (s, description) => ({ ...s, description }),
      read: (value, index) =>
        value === null ? null : (parseValue(teamDescriptionSchema, value, index) ?? null),
      removed: null,
      allowed: rule('description'),
    }),
    '/mode': patchField<TeamState, TeamRow['mode']>({
      get: (s) => s.mode,
      set: (s, mode) => ({ ...s, mode }),
      read: (value, index) => parseValue(teamModeSchema, value, index),
      allowed: rule('mode'),
    }),
    '/starAlias': patchField<TeamState, string | null>({
      get: (s) => s.starAlias,
      set: (s, starAlias) => ({ ...s, starAlias }),
      read: (value, index) => {
        const alias = parseValue(aliasSchema, value, index);
        if (!aliases.includes(alias)) {
          throw defaultRefusals.invalid(
            index,
            'the preferred alias must be one of the team aliases',
          );
        }
        return alias;
      },
      allowed: rule('starAlias'),
    }),
    '/stripLocation': patchField<TeamState, boolean>({
      get: (s) => s.stripLocation,
      set: (s, stripLocation) => ({ ...s, stripLocation }),
      read: (value, index) => parseValue(z.boolean(), value, index),
      allowed: rule('stripLocation'),
    }),
    '/requireSecondFactor': patchField<TeamState, boolean>({
      get: (s) => s.requireSecondFactor,
      set: (s, requireSecondFactor) => ({ ...s, requireSecondFactor }),
      read: (value, index) => parseValue(z.boolean(), value, index),
      allowed: rule('requireSecondFactor'),
    }),
  };
  const state = applyPatch(current, ops, fields, {
    invalid: defaultRefusals.invalid,
    forbidden: (index, path) =>
      defaultRefusals.invalid(index, `${path} cannot be changed by the ${role} role`),
  });
  const changes: Partial<TeamState> = {};
  if (state.name !== current.name) changes.name = state.name;
  if (state.description !== current.description) changes.description = state.description;
  if (state.mode !== current.mode) changes.mode = state.mode;
  if (state.starAlias !== current.starAlias && state.starAlias !== null) {
    changes.starAlias = state.starAlias;
  }
  if (state.stripLocation !== current.stripLocation) changes.stripLocation = state.stripLocation;
  if (state.requireSecondFactor !== current.requireSecondFactor) {
    // An owner without a factor would shut themselves out of their own team.
    if (state.requireSecondFactor && !(await hasSecondFactor(ctx.db, actor.id))) {
      throw new AppError('secondFactorEnrolmentRequired');
    }
    changes.requireSecondFactor = state.requireSecondFactor;
  }

  if (Object.keys(changes).length > 0) {
    await updateTeam(ctx.db, team.id, {
      ...(changes.name !== undefined
        ? { name: changes.name, name_key: teamNameKey(changes.name) }
        : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.mode !== undefined ? { mode: changes.mode } : {}),
      ...(changes.starAlias !== undefined ? { star_alias: changes.starAlias } : {}),
      ...(changes.stripLocation !== undefined
        ? { strip_location: changes.stripLocation ? 1 : 0 }
        : {}),
      ...(changes.requireSecondFactor !== undefined
        ? { require_second_factor: changes.requireSecondFactor ? 1 : 0 }
        : {}),
      updated_at: ctx.clock(),
      updated_by: actor.id,
    });
  }
  const updated = await findTeamById(ctx.db, team.id);
  // Deleted by someone else since it was read.
  if (!updated) throw new AppError('notFound');
  return present(ctx.db, updated);
}
