export { findUndefinedTags, parseTemplate, templateTags, type TagKind, type TemplatePart, type TemplateTag } from './parse.ts'
