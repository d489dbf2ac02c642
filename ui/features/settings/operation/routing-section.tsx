/**
 * How the relay routes calls (issue 27): a routing policy per group (`GroupRoutingPolicy`), session
 * affinity (`Affinity*`) and its rules; and, apart, forgetting remembered sessions.
 */
import { useLoaderData } from 'react-router'
import { ROUTING_POLICIES, ROUTING_POLICY, type RoutingPolicy } from '@shared/routing-constants'
import { Button } from '@ui/components/ui/button'
import { Label } from '@ui/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { FieldGrid, fieldId, OptionJson, OptionNumber, OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { jsonRule, numberRule, type OptionForm, useOptionForm } from '@ui/features/settings/options-form'
import type { SettingData } from '@ui/features/settings/setting-route'
import { useTranslation } from '@ui/i18n'

const KEYS = ['GroupRoutingPolicy', 'AffinityEnabled', 'AffinityDefaultSourcesEnabled', 'AffinityTTLSeconds', 'AffinityMaxEntries', 'AffinityRules'] as const
const RULES = { GroupRoutingPolicy: jsonRule(), AffinityTTLSeconds: numberRule(1), AffinityMaxEntries: numberRule(1), AffinityRules: jsonRule() }

/** Each policy's name and one line on what it does (zh source strings). */
export const POLICY_TEXTS: Record<RoutingPolicy, { name: string; description: string }> = {
	[ROUTING_POLICY.weighted]: { name: '加权随机（默认）', description: '最高优先级的渠道中按权重随机选一个，再按渠道的多密钥方式选密钥' },
	[ROUTING_POLICY.priority]: { name: '严格优先级', description: '严格按优先级和顺序使用第一个渠道，失败时依次向下' },
	[ROUTING_POLICY.roundRobin]: { name: '轮询', description: '最高优先级的渠道依次轮流使用' },
	[ROUTING_POLICY.leastLatency]: { name: '最低延迟', description: '选首字时间移动平均最短的密钥，并不时试探其他密钥' },
	[ROUTING_POLICY.leastBusy]: { name: '最少并发', description: '选本节点上进行中的调用最少的密钥' },
	[ROUTING_POLICY.leastCost]: { name: '最低成本', description: '最高优先级的渠道中选该模型成本最低的渠道（按渠道的模型成本价或成本倍率；成本相同按权重，未知的排在最后），失败时换下一个最便宜的' },
}

const isPolicy = (value: unknown): value is RoutingPolicy => typeof value === 'string' && (ROUTING_POLICIES as readonly string[]).includes(value)

/** `{group: policy}` from the field's text; an entry that is not a policy is left out (the server never stores one). */
export function readPolicies(text: string): Record<string, RoutingPolicy> {
	try {
		const parsed: unknown = JSON.parse(text || '{}')
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
		return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, RoutingPolicy] => isPolicy(entry[1])))
	} catch {
		return {}
	}
}

/**
 * The field's text once `group` uses `policy`: `weighted` is every group's default, so choosing it
 * removes the group's entry. Indented as the form shows stored JSON, so that undoing a choice leaves
 * nothing to save.
 */
export function withPolicy(text: string, group: string, policy: RoutingPolicy): string {
	const { [group]: _previous, ...others } = readPolicies(text)
	return JSON.stringify(policy === ROUTING_POLICY.weighted ? others : { ...others, [group]: policy }, null, 2)
}

/** The groups with a ratio (every group a user or token may use), then any other group the policy names. */
function groupsOf(groupRatio: string | undefined, policies: Record<string, RoutingPolicy>): string[] {
	let ratioGroups: string[] = []
	try {
		const parsed: unknown = JSON.parse(groupRatio ?? '{}')
		if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) ratioGroups = Object.keys(parsed)
	} catch {
		// A ratio the server could not have stored: the policy's own groups remain.
	}
	return [...new Set([...ratioGroups, ...Object.keys(policies)])]
}

function GroupPolicies({ form }: { form: OptionForm }) {
	const { t } = useTranslation()
	const groupRatio = (useLoaderData() as SettingData).options?.GroupRatio
	const text = form.values.GroupRoutingPolicy ?? ''
	const policies = readPolicies(text)
	const groups = groupsOf(groupRatio, policies)
	return (
		<div className="flex flex-col gap-2" data-option="GroupRoutingPolicy">
			<span className="text-sm font-medium">{t('各分组的路由策略')}</span>
			<ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={t('各分组的路由策略')}>
				{groups.map((group) => {
					const id = `${fieldId('GroupRoutingPolicy')}-${group}`
					return (
						<li key={group} className="flex flex-col gap-1.5">
							<Label htmlFor={id} className="break-all">{group}</Label>
							<Select value={policies[group] ?? ROUTING_POLICY.weighted} onValueChange={(value) => isPolicy(value) && form.set('GroupRoutingPolicy', withPolicy(text, group, value))}>
								<SelectTrigger id={id} aria-label={t('分组 {group} 的路由策略', { group })}>
									<SelectValue />
								</SelectTrigger>
								<SelectContent>
									{ROUTING_POLICIES.map((policy) => (
										<SelectItem key={policy} value={policy}>{t(POLICY_TEXTS[policy].name)}</SelectItem>
									))}
								</SelectContent>
							</Select>
						</li>
					)
				})}
			</ul>
			{form.errors.GroupRoutingPolicy && <p className="text-xs text-destructive" role="alert">{form.errors.GroupRoutingPolicy}</p>}
			<dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs text-muted-foreground" data-testid="routing-policies">
				{ROUTING_POLICIES.map((policy) => (
					<div key={policy} className="contents">
						<dt className="font-medium text-foreground">{t(POLICY_TEXTS[policy].name)}</dt>
						<dd>{t(POLICY_TEXTS[policy].description)}</dd>
					</div>
				))}
			</dl>
		</div>
	)
}

/** What the rules field is filled with on request: one rule of each kind. */
const RULES_TEMPLATE = JSON.stringify([
	{ model: 'claude-*', path: '/v1/messages', body: 'metadata.conversation_id' },
	{ header: 'x-conversation-id' },
], null, 2)

export function RoutingSection() {
	const { t } = useTranslation()
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="routing" title="路由与会话亲和" description="调用先按分组的路由策略选渠道和密钥；带会话的调用留在同一个密钥上，让上游的提示缓存保持有效" form={form} saveText="保存路由设置">
			<GroupPolicies form={form} />
			<OptionSwitch form={form} name="AffinityEnabled" label="启用会话亲和" hint="同一会话的调用留在同一个密钥上，直到它不可用" />
			<OptionSwitch
				form={form}
				name="AffinityDefaultSourcesEnabled"
				label="从常见位置读取会话"
				hint="依次读取：x-session-id 请求头、prompt_cache_key、Codex 的 session_id 请求头、Claude 的 metadata.user_id"
			/>
			<FieldGrid columns={2}>
				<OptionNumber form={form} name="AffinityTTLSeconds" label="会话保留时长（秒）" hint="会话最后一次调用后保留这么久" step={1} />
				<OptionNumber form={form} name="AffinityMaxEntries" label="最多记住的会话数" hint="超出时先忘记最久未用的会话" step={1} />
			</FieldGrid>
			<OptionJson
				form={form}
				name="AffinityRules"
				label="会话规则"
				hint="JSON 列表，先于常见位置读取：[{ model?, path?, header? | body? }]。model 为模型名（可用 * 通配），path 为请求路径的开头；header 为读取会话的请求头名，body 为请求体中的 JSON 路径（如 metadata.conversation_id），二者恰选其一"
				placeholder={RULES_TEMPLATE}
			/>
			<Button type="button" variant="link" size="sm" className="h-auto w-fit p-0" aria-label={t('填入模板：{name}', { name: t('会话规则') })} onClick={() => form.set('AffinityRules', RULES_TEMPLATE)}>
				{t('填入模板')}
			</Button>
		</SectionCard>
	)
}
