/**
 * How the relay picks where a call goes, as the console and the server both know it: the routing
 * policies a group may use (option `GroupRoutingPolicy`), the super admin's session-affinity rules
 * (option `AffinityRules`) and the bounds of the affinity options. The policies themselves are
 * described where they are implemented (src/relay/router/policies.ts).
 */
import { z } from 'zod'
import { AFFINITY_RULES_MAX, ROUTING_POLICIES } from './routing-constants'

export * from './routing-constants'

/** `{group: policy}`; a group it does not name is routed `weighted`. */
export const groupRoutingPolicySchema = z.record(z.string(), z.enum(ROUTING_POLICIES))

/** The longest text a rule may hold in any of its fields. */
const RULE_TEXT_MAX = 200

const ruleText = z.string().trim().min(1).max(RULE_TEXT_MAX)

/**
 * A rule: for calls whose model matches `model` (a name, or a pattern with `*`) and whose path
 * starts with `path` (each optional), the session is read from the `header` named, or from the
 * client's JSON body at the dotted `body` path — exactly one of the two (a rule naming both, or neither, is refused).
 */
export const affinityRuleSchema = z.object({
	model: ruleText.optional(),
	path: ruleText.optional(),
	header: ruleText.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/).optional(),
	body: ruleText.regex(/^[^.\s]+(\.[^.\s]+){0,15}$/).optional(),
}).strict().refine((rule) => (rule.header === undefined) !== (rule.body === undefined))
export type AffinityRule = z.infer<typeof affinityRuleSchema>

export const affinityRulesSchema = z.array(affinityRuleSchema).max(AFFINITY_RULES_MAX)
