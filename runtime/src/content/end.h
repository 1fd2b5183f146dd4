#endif /* TL_CONTENT_IMPL */
