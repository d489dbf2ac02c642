/** A Claude model's version, read from its name (Anthropic's, Bedrock's or Vertex's spelling). */

/** `claude-opus-4-5`, `claude-sonnet-4-20250514`, `anthropic.claude-haiku-4-5-…` (Bedrock), `claude-sonnet-4-5@…`. */
const FAMILY_VERSION = /claude-(?:opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2})(?!\d))?/
/** Claude 3's names put the version first: `claude-3-7-sonnet-20250219`, `claude-3-5-haiku-latest`. */
const VERSION_FAMILY = /claude-(\d)(?:[-.](\d))?-(?:opus|sonnet|haiku)/

export interface ClaudeVersion {
	major: number
	minor: number
}

/** The model's version, or undefined for a name that does not show one (a custom mapping, an ARN). */
export function claudeVersionOf(model: string): ClaudeVersion | undefined {
	const match = FAMILY_VERSION.exec(model) ?? VERSION_FAMILY.exec(model)
	if (!match) return undefined
	return { major: Number(match[1]), minor: Number(match[2] ?? 0) }
}

/** Whether `version` is `major.minor` or later. */
export const isAtLeast = (version: ClaudeVersion, major: number, minor: number) => version.major > major || (version.major === major && version.minor >= minor)
