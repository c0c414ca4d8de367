/**
 * The parts of the fake messaging platform for what goes beyond text and interactive messages: the
 * business's approved templates (set by a test, as the business's account holds them), the 24-hour
 * window as the platform keeps it, and the media endpoint. Each answers as the Cloud API does,
 * codes and bodies included (docs: spec §9):
 *
 * - a template send: 132001 when the name does not exist in that language, 132015 / 132016 when it
 *   is paused / disabled, 132000 when the body's parameter count differs, 132012 when a parameter
 *   is not text; accepted outside the customer's window;
 * - a free-form send (text, interactive, image, document) to a customer whose window is closed: 131047;
 * - `POST /<version>/<phone-number-id>/media`, multipart (`messaging_product`, `type`, `file`):
 *   `{ id }`; a type the platform does not take or a file over its size: 131053; a send naming a
 *   media id this number never uploaded: 100.
 */
import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface FakeTemplate {
  name: string;
  language: string;
  /** How many body parameters the approved template takes. */
  bodyParameters: number;
  status?: 'APPROVED' | 'PAUSED' | 'DISABLED';
}

export interface UploadedMedia {
  id: string;
  phoneNumberId: string;
  contentType: string;
  filename: string;
  bytes: Buffer;
}

/** A Graph error as the fake answers it: status, code, message and details. */
export interface ExtrasError {
  status: number;
  code: number;
  message: string;
  details?: string;
}

/** The platform's types and sizes (Cloud API supported media). */
const platformMedia: Array<{ types: string[]; maxBytes: number }> = [
  { types: ['image/jpeg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  {
    types: [
      'application/pdf',
      'text/plain',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    maxBytes: 100 * 1024 * 1024,
  },
];

const freeFormTypes = new Set(['text', 'interactive', 'image', 'document', 'audio', 'video', 'sticker', 'location', 'reaction']);

export function createFakeExtras() {
  const templates: FakeTemplate[] = [];
  const closedWindows = new Set<string>();
  const uploaded: UploadedMedia[] = [];

  /** What the platform answers to a send before taking it, or undefined to go on (template and media sends are then accepted). */
  function checkSend(phoneNumberId: string, waId: string, body: Record<string, unknown>): ExtrasError | undefined {
    const type = String(body.type ?? 'text');
    if (type === 'template') return checkTemplate(body.template);
    if (freeFormTypes.has(type) && closedWindows.has(waId)) {
      return {
        status: 400,
        code: 131047,
        message: '(#131047) Re-engagement message',
        details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      };
    }
    if (type === 'image' || type === 'document') return checkMediaSend(phoneNumberId, type, body[type]);
    return undefined;
  }

  function checkTemplate(template: unknown): ExtrasError | undefined {
    const t = isRecord(template) ? template : {};
    const language = isRecord(t.language) ? t.language.code : undefined;
    if (typeof t.name !== 'string' || typeof language !== 'string') {
      return {
        status: 400,
        code: 131008,
        message: '(#131008) Required parameter is missing',
        details: 'template name and language.code are required',
      };
    }
    const found = templates.find((entry) => entry.name === t.name && entry.language === language);
    if (!found) {
      return {
        status: 404,
        code: 132001,
        message: '(#132001) Template name does not exist in the translation',
        details: `template name (${t.name}) does not exist in ${language}`,
      };
    }
    if (found.status === 'PAUSED') {
      return {
        status: 400,
        code: 132015,
        message: '(#132015) Template is Paused',
        details: 'Template is paused due to low quality so it cannot be sent in a template message.',
      };
    }
    if (found.status === 'DISABLED') {
      return {
        status: 400,
        code: 132016,
        message: '(#132016) Template is Disabled',
        details: 'Template has been paused too many times due to low quality and is now permanently disabled.',
      };
    }
    const components = Array.isArray(t.components) ? t.components : [];
    const bodyComponent = components.find((component) => isRecord(component) && component.type === 'body');
    const parameters: unknown[] =
      isRecord(bodyComponent) && Array.isArray(bodyComponent.parameters) ? bodyComponent.parameters : [];
    if (parameters.length !== found.bodyParameters) {
      return {
        status: 400,
        code: 132000,
        message: '(#132000) Number of parameters does not match the expected number of params',
        details: `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${found.bodyParameters})`,
      };
    }
    const badIndex = parameters.findIndex(
      (parameter) =>
        !isRecord(parameter) || parameter.type !== 'text' || typeof parameter.text !== 'string' || parameter.text.trim() === '',
    );
    if (badIndex >= 0) {
      return {
        status: 400,
        code: 132012,
        message: '(#132012) Parameter format does not match format in the created template',
        details: `body: parameter ${badIndex + 1} must be of type text with a non-empty text`,
      };
    }
    return undefined;
  }

  function checkMediaSend(phoneNumberId: string, type: string, media: unknown): ExtrasError | undefined {
    const id = isRecord(media) ? media.id : undefined;
    if (typeof id !== 'string' || !uploaded.some((entry) => entry.id === id && entry.phoneNumberId === phoneNumberId)) {
      return {
        status: 400,
        code: 100,
        message: '(#100) Invalid parameter',
        details: `${type}.id is not a media id uploaded by this number`,
      };
    }
    const caption = isRecord(media) ? media.caption : undefined;
    if (caption !== undefined && (typeof caption !== 'string' || [...caption].length > 1024)) {
      return {
        status: 400,
        code: 131009,
        message: '(#131009) Parameter value is not valid',
        details: `${type}.caption is longer than 1024 characters`,
      };
    }
    return undefined;
  }

  /** `POST /<version>/<phone-number-id>/media`: the multipart upload, answered with its id or the platform's error. */
  async function upload(request: IncomingMessage, phoneNumberId: string): Promise<{ id: string } | ExtrasError> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let form: FormData;
    try {
      form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData();
    } catch {
      return { status: 400, code: 100, message: '(#100) Invalid parameter', details: 'the body is not multipart/form-data' };
    }
    if (form.get('messaging_product') !== 'whatsapp') {
      return { status: 400, code: 100, message: '(#100) The parameter messaging_product is required.' };
    }
    const file = form.get('file');
    if (!(file instanceof Blob)) return { status: 400, code: 100, message: '(#100) The parameter file is required.' };
    const contentType = String(form.get('type') ?? file.type);
    const kind = platformMedia.find(({ types }) => types.includes(contentType));
    if (!kind) {
      return {
        status: 400,
        code: 131053,
        message: '(#131053) Media upload error',
        details: `Unsupported file type ${contentType}`,
      };
    }
    if (file.size > kind.maxBytes) {
      return {
        status: 400,
        code: 131053,
        message: '(#131053) Media upload error',
        details: `file size ${file.size} exceeds the limit of ${kind.maxBytes} bytes`,
      };
    }
    const id = `${randomInt(1e7, 9e7)}${randomInt(1e7, 9e7)}`;
    const filename = 'name' in file && typeof file.name === 'string' ? file.name : '';
    uploaded.push({ id, phoneNumberId, contentType, filename, bytes: Buffer.from(await file.arrayBuffer()) });
    return { id };
  }

  return {
    checkSend,
    upload,
    uploaded,
    /** The business's account approves a template (or pauses, disables it: set `status`); replaces one of the same name and language. */
    approveTemplate(template: FakeTemplate): void {
      const index = templates.findIndex((entry) => entry.name === template.name && entry.language === template.language);
      if (index >= 0) templates.splice(index, 1);
      templates.push({ status: 'APPROVED', ...template });
    },
    /** The customer last wrote more than 24 hours ago, as far as the platform knows: free-form sends get 131047. */
    closeWindow: (waId: string) => void closedWindows.add(waId.replace(/^\+/, '')),
    openWindow: (waId: string) => void closedWindows.delete(waId.replace(/^\+/, '')),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
