/**
 * Texts the server ships as option defaults, in English (the group descriptions of
 * `UserUsableGroups`, the payment methods of `PayMethods`), and the zh source text each stands for:
 * shown through `t()`, they read in the console's language. Texts an admin wrote show as written.
 */
const BUILT_IN_TEXTS: Record<string, string> = {
	'default group': '默认分组',
	'vip group': 'VIP 分组',
	'svip group': 'SVIP 分组',
	Alipay: '支付宝',
	'WeChat Pay': '微信支付',
	alipay: '支付宝',
	wxpay: '微信支付',
	stripe: 'Stripe',
}

/** The zh source text of a built-in default, else the text itself: pass the answer to `t()`. */
export const builtInText = (text: string) => (Object.hasOwn(BUILT_IN_TEXTS, text) ? BUILT_IN_TEXTS[text]! : text)
