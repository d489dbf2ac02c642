import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'WeChatServerAddress', label: '微信服务器地址', placeholder: '例如：https://yourdomain.com', kind: 'address' },
	{ key: 'WeChatServerToken', label: '微信服务器访问凭证', kind: 'secret' },
	{ key: 'WeChatAccountQRCodeImageURL', label: '微信公众号二维码图片链接' },
])

export function WeChatSection() {
	return <FieldsSection id="wechat" title="配置微信服务器" saveText="保存微信服务器设置" description="用于微信扫码登录" spec={SPEC} />
}
